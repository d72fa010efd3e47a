/**
 * A seeded random classification file for the inspection tests, written as text here so that
 * the line where each row starts is known independently of the reader: 4 classes with wide
 * probability columns, a split column, and other columns (a categorical city with commas and
 * quotes, a numeric age, a note that sometimes holds a quoted newline).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRng } from '../../../src/core/stats/rng';

export const CLASSES = ['a', 'b', 'c', 'd'];
export const CITIES = ['Lyon', 'São Paulo, BR', 'say "hi"', '=cmd', 'Oslo'];
/** Train counts: a many-shot (> 100), b medium, c and d few-shot (< 20). */
export const TRAIN = { a: 500, b: 50, c: 10, d: 5 };
export const GROUPS = { a: 'head', b: 'head', c: 'tail', d: 'tail' };

export interface RefRow {
  line: number;
  id: string;
  label: string;
  probs: number[];
  split: string;
  city: string;
  age: string;
  note: string;
  /** The row as written in the file (one or more physical lines). */
  text: string;
}

function csvQuote(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const HEADER = ['id', 'label', ...CLASSES.map((c) => `prob_${c}`), 'split', 'city', 'age', 'note'].join(',');

export function writeRandomFile(dir: string, seed: number, n: number, eol = '\n'): { path: string; rows: RefRow[] } {
  const rng = createRng(seed);
  const rows: RefRow[] = [];
  const out = [HEADER];
  let line = 2;
  for (let i = 0; i < n; i++) {
    const raw = CLASSES.map(() => Math.floor(rng.next() * 20) + (rng.next() < 0.1 ? 40 : 0));
    const sum = raw.reduce((s, x) => s + x, 0) || 1;
    // probabilities with few distinct values, so ties in confidence and loss occur
    const probs = raw.map((x) => Math.round((x / sum) * 20) / 20);
    const label = CLASSES[rng.int(4)];
    const note = rng.next() < 0.1 ? `two${eol}lines` : rng.next() < 0.5 ? `n${rng.int(3)}` : '';
    const r: RefRow = {
      line,
      id: `r${i}`,
      label,
      probs,
      split: rng.next() < 0.5 ? 'val' : 'test',
      city: CITIES[rng.int(CITIES.length)],
      age: String(18 + rng.int(60)),
      note,
      text: '',
    };
    rows.push(r);
    const text = [r.id, r.label, ...probs.map(String), r.split, csvQuote(r.city), r.age, csvQuote(r.note)].join(',');
    r.text = text;
    out.push(text);
    line += 1 + (text.split(eol).length - 1);
    if (rng.next() < 0.05) {
      out.push(''); // a blank line: skipped, but counted
      line++;
    }
  }
  const path = join(dir, `random-${seed}.csv`);
  writeFileSync(path, out.join(eol) + eol);
  writeFileSync(
    join(dir, `random-${seed}.json`),
    JSON.stringify({ trainCounts: TRAIN, groups: GROUPS, acceptThreshold: 0.5, bootstrap: { n: 0 } }),
  );
  return { path, rows };
}

/** The derived values of a row, computed the slow, obvious way. */
export function derive(r: RefRow) {
  let pred = 0;
  for (let c = 1; c < 4; c++) if (r.probs[c] > r.probs[pred]) pred = c;
  const y = CLASSES.indexOf(r.label);
  const confidence = Math.max(...r.probs);
  const n = TRAIN[r.label as keyof typeof TRAIN];
  return {
    pred: CLASSES[pred],
    correct: pred === y,
    confidence,
    loss: -Math.log(Math.max(r.probs[y], 1e-15)),
    shot: n > 100 ? 'many' : n < 20 ? 'few' : 'medium',
    group: GROUPS[r.label as keyof typeof GROUPS],
    accepted: confidence >= 0.5,
  };
}
