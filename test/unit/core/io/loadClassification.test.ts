// The input rules (docs/inputs.md) as applied by loadClassification: class set, prediction, scores, softmax,
// warnings, invalid rows, and the byte fast path against the papaparse and JSON paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EvalLensError } from '../../../../src/core/diagnostics';
import type { EvalConfig } from '../../../../src/core/config/types';
import { createRng } from '../../../../src/core/stats/rng';
import { configOf } from '../../helpers/ioConfig';
import { tmpFile } from '../../helpers/io';
import { loadBothWays } from '../../helpers/probabilityTerms';

/** Read with the matrix kept, and checked against a read without it (see loadBothWays). */
async function load(name: string, content: string, cfg: EvalConfig = {}) {
  const r = await loadBothWays(tmpFile(name, content), configOf(cfg));
  return { ...r, d: r.data, warnings: r.warnings.list };
}

const arr = (a: ArrayLike<number> | null) => (a ? Array.from(a) : a);

test('class set: config `classes` order wins; wide columns matched by suffix', async () => {
  const { d } = await load('a.csv', 'label,prob_b,prob_a\na,0.3,0.7\nb,0.9,0.1\n', { classes: ['a', 'b'] });
  assert.deepEqual(d.classes, ['a', 'b']);
  assert.deepEqual(arr(d.labels), [0, 1]);
  assert.deepEqual(arr(d.probs), [0.7, 0.3, 0.1, 0.9]); // reordered into class order
  assert.deepEqual(arr(d.preds), [0, 1]);
});

test('class set: wide suffixes in column order without config', async () => {
  const { d, columns } = await load('a.csv', 'label,p_zeta,p_alpha\nalpha,0.3,0.7\n');
  assert.deepEqual(d.classes, ['zeta', 'alpha']);
  assert.deepEqual(arr(d.labels), [1]);
  assert.deepEqual(columns.probs, ['p_zeta', 'p_alpha']);
});

test('class set: sorted union of labels and predictions — numeric when all integers, else string order', async () => {
  let { d } = await load('a.csv', 'label,pred\n10,2\n2,1\n1.0,10\n');
  assert.deepEqual(d.classes, ['1', '2', '10']);
  assert.deepEqual(arr(d.labels), [2, 1, 0]); // "1.0" is class 1
  assert.deepEqual(arr(d.preds), [1, 0, 2]);
  ({ d } = await load('b.csv', 'y_true,y_pred\ndog,cat\nCat,dog\nbird,dog\n'));
  assert.deepEqual(d.classes, ['Cat', 'bird', 'cat', 'dog']);
  assert.deepEqual(arr(d.labels), [3, 0, 1]);
});

test('config classes given as numbers match integer labels, also written as 1.0', async () => {
  const { d } = await load('a.csv', 'label,pred\n1.0,0\n2,1\n', { classes: [0, 1, 2] });
  assert.deepEqual(d.classes, ['0', '1', '2']);
  assert.deepEqual(arr(d.labels), [1, 2]);
});

test('prediction: a pred column wins over the arg-max', async () => {
  const { d } = await load('a.csv', 'label,pred,prob_0,prob_1\n0,0,0.2,0.8\n');
  assert.deepEqual(arr(d.preds), [0]);
});

test('prediction: arg-max takes the first maximum on ties', async () => {
  const { d } = await load('a.csv', 'label,prob_a,prob_b,prob_c\na,0.25,0.5,0.25\na,0.4,0.2,0.4\nc,0.2,0.4,0.4\n');
  assert.deepEqual(arr(d.preds), [1, 0, 1]);
});

test('logits: stable softmax, huge values do not overflow', async () => {
  const { d, warnings } = await load(
    'a.csv',
    'label,logit_a,logit_b\na,0,0\nb,1000,1001\na,1e308,-1e308\nb,-1000,-1000\n',
  );
  assert.equal(d.fromLogits, true);
  const P = arr(d.probs)!;
  const e = Math.exp(-1);
  const expected = [0.5, 0.5, e / (1 + e), 1 / (1 + e), 1, 0, 0.5, 0.5];
  P.forEach((p, i) => assert.ok(Math.abs(p - expected[i]) < 1e-15, `p[${i}]=${p}`));
  assert.deepEqual(arr(d.preds), [0, 1, 0, 0]);
  assert.deepEqual(warnings, []); // no sum check on softmax output
});

test('array columns: JSONL probs and logits, CSV "[…]" cells; classes = indices for integer labels', async () => {
  const first = await load('a.jsonl', '{"label":1,"probs":[0.1,0.9]}\n{"label":0,"probs":[0.6,0.4]}\n');
  let d = first.d;
  assert.deepEqual(d.classes, ['0', '1']);
  assert.deepEqual(arr(d.probs), [0.1, 0.9, 0.6, 0.4]);
  assert.deepEqual(arr(d.preds), [1, 0]);
  assert.equal(first.columns.probsArray, 'probs');
  ({ d } = await load('b.jsonl', '{"label":"0","logits":[0,0,0]}\n'));
  assert.deepEqual(d.classes, ['0', '1', '2']); // array length fixes the classes
  assert.deepEqual(arr(d.probs), [1 / 3, 1 / 3, 1 / 3]);
  ({ d } = await load('c.csv', 'label,scores\nb,"[0.2, 0.8]"\na,"[0.7,0.3]"\n'));
  assert.deepEqual(d.classes, ['a', 'b']); // two distinct string labels for two entries: sorted
  assert.deepEqual(arr(d.preds), [1, 0]);
  await assert.rejects(
    load(
      'd.jsonl',
      '{"label":"x","probs":[0.5,0.5]}\n{"label":"y","probs":[0.5,0.5]}\n{"label":"z","probs":[0.5,0.5]}\n',
    ),
    /Set `classes` in eval-lens.json/,
  );
  await assert.rejects(
    load('e.jsonl', '{"label":0,"probs":[0.5,0.5]}\n{"label":1,"probs":[1]}\n'),
    (e: EvalLensError) => e.code === 'invalid-array' && e.location?.line === 2,
  );
});

test('JSON (array of rows and object of columns) loads like CSV', async () => {
  const csv = await load('a.csv', 'id,label,pred,prob_x,prob_y,weight\nr1,x,y,0.4,0.6,2\nr2,y,y,0.1,0.9,0.5\n');
  const rows = await load(
    'a.json',
    JSON.stringify(
      [
        { id: 'r1', label: 'x', pred: 'y', prob_x: 0.4, prob_y: 0.6, weight: 2 },
        { id: 'r2', label: 'y', pred: 'y', prob_x: 0.1, prob_y: 0.9, weight: 0.5 },
      ],
      null,
      1,
    ),
  );
  const cols = await load(
    'b.json',
    JSON.stringify({
      id: ['r1', 'r2'],
      label: ['x', 'y'],
      pred: ['y', 'y'],
      prob_x: [0.4, 0.1],
      prob_y: [0.6, 0.9],
      weight: [2, 0.5],
    }),
  );
  for (const o of [rows, cols]) {
    assert.deepEqual(o.d.classes, csv.d.classes);
    assert.deepEqual(arr(o.d.probs), arr(csv.d.probs));
    assert.deepEqual(arr(o.d.weights), [2, 0.5]);
    assert.deepEqual(arr(o.d.preds), arr(csv.d.preds));
    assert.deepEqual(o.d.ids?.toArray(), ['r1', 'r2']);
  }
  assert.deepEqual(arr(rows.d.lines), [2, 10]);
});

test('probabilities are used as written; rows off by > 1e-3 give ONE warning with count and first line', async () => {
  const { d, warnings } = await load('a.csv', 'label,prob_a,prob_b\na,0.5,0.5\na,0.5,0.5009\nb,0.2,0.7\nb,0.6,0.6\n');
  assert.deepEqual(arr(d.probs), [0.5, 0.5, 0.5, 0.5009, 0.2, 0.7, 0.6, 0.6]);
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].code, 'probabilities-not-normalised');
  assert.equal(warnings[0].count, 2);
  assert.deepEqual(warnings[0].lines, [4, 5]);
  assert.match(warnings[0].message, /2 rows .* First: line 4 \(sum 0\.9\)/);
});

test('optional columns: score (confidence), weight, accept, group, split (lower-cased), id', async () => {
  const { d, columns } = await load(
    'a.csv',
    'ID,Label,Pred,Confidence,Weight,Accept,Group,Split\nu, a ,a,0.9,1.5,1,g1,TEST\nv,b,a,0.2,0,false,g2,Val\nw,b,b,0.3,1,1.0,g2,val\n',
  );
  assert.deepEqual(arr(d.scoreColumn), [0.9, 0.2, 0.3]);
  assert.equal(d.scoreColumnName, 'Confidence');
  assert.deepEqual(arr(d.weights), [1.5, 0, 1]);
  assert.deepEqual(arr(d.accept), [1, 0, 1]);
  assert.deepEqual(d.groupColumn, ['g1', 'g2', 'g2']);
  assert.deepEqual(d.split, ['test', 'val', 'val']);
  assert.deepEqual(d.ids?.toArray(), ['u', 'v', 'w']);
  assert.equal(d.probs, null);
  assert.deepEqual(columns, {
    label: 'Label',
    pred: 'Pred',
    score: 'Confidence',
    weight: 'Weight',
    accept: 'Accept',
    group: 'Group',
    split: 'Split',
    id: 'ID',
  });
});

test('`columns` in the config overrides detection', async () => {
  const { d } = await load('a.csv', 'truth,guess,c1,c2\nx,y,0.1,0.9\n', {
    columns: { label: 'truth', pred: 'guess', probs: ['c1', 'c2'] },
    classes: ['x', 'y'],
  });
  assert.deepEqual(arr(d.labels), [0]);
  assert.deepEqual(arr(d.preds), [1]);
  assert.deepEqual(arr(d.probs), [0.1, 0.9]);
});

test('invalid weight and accept values name line and column', async () => {
  await assert.rejects(
    load('a.csv', 'label,pred,weight\na,a,1\na,a,-2\n'),
    (e: EvalLensError) => e.code === 'invalid-weight' && e.location?.line === 3 && e.location.column === 'weight',
  );
  await assert.rejects(
    load('b.csv', 'label,pred,weight\na,a,1\na,a,x\n'),
    (e: EvalLensError) => e.code === 'invalid-number' && e.location?.line === 3,
  );
  await assert.rejects(
    load('c.csv', 'label,pred,accept\na,a,yes\n'),
    (e: EvalLensError) => e.code === 'invalid-accept' && e.location?.line === 2,
  );
  await assert.rejects(
    load('d.csv', 'label,pred\na,a\n,a\n'),
    (e: EvalLensError) => e.code === 'missing-value' && e.location?.column === 'label',
  );
  await assert.rejects(
    load('e.csv', 'label,prob_a,prob_b\na,0.5,0.5\nb,0.5,\n'),
    (e: EvalLensError) => e.code === 'invalid-number' && e.location?.line === 3 && e.location.column === 'prob_b',
  );
});

test('a ragged row is reported as ragged even when its cells would also be invalid', async () => {
  await assert.rejects(
    load('a.csv', 'label,prob_a,prob_b\na,0.5,0.5\nb,x\n'),
    (e: EvalLensError) => e.code === 'ragged-row' && e.location?.line === 3,
  );
});

test('config classes and wide columns: by position (with a warning) when suffixes are not class names', async () => {
  const { d, warnings } = await load('a.csv', 'label,p_0,p_1\ncat,0.9,0.1\n', { classes: ['cat', 'dog'] });
  assert.deepEqual(arr(d.probs), [0.9, 0.1]);
  assert.equal(warnings[0].code, 'class-columns-by-position');
  await assert.rejects(
    load('b.csv', 'label,p_0,p_1\ncat,0.9,0.1\n', { classes: ['cat', 'dog', 'cow'] }),
    /expected 3 class-score columns/,
  );
  await assert.rejects(
    load('c.csv', 'label,prob_cat,prob_dog\ncat,0.9,0.1\n', { classes: ['cat', 'dog', 'cow'] }),
    /no class-score column for class\(es\) cow/,
  );
});

test('skip mode with a large file: dropped lines listed once, first 20', async () => {
  const rows = ['label,prob_a,prob_b'];
  for (let i = 0; i < 1000; i++) rows.push(i % 25 === 3 ? 'a,0.5,bad' : 'a,0.5,0.5');
  const { d, warnings } = await load('s.csv', rows.join('\n'), { invalidRows: 'skip' });
  assert.equal(d.n, 960);
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0].count, 40);
  assert.deepEqual(
    warnings[0].lines,
    Array.from({ length: 20 }, (_, k) => 5 + 25 * k),
  );
});

/** Random file text in a few number spellings; the same values as JSON rows. */
function randomFile(
  seed: number,
  n: number,
  C: number,
): { csv: string; csvQuoted: string; tsv: string; jsonl: string } {
  const rng = createRng(seed);
  const spell = (v: number): string => {
    const k = rng.int(5);
    if (k === 0) return String(v);
    if (k === 1) return v.toExponential(rng.int(12));
    if (k === 2) return v.toPrecision(1 + rng.int(17));
    if (k === 3) return (-v).toFixed(rng.int(10));
    return v.toFixed(20 + rng.int(10)).replace(/0+$/, '');
  };
  const head = ['id', 'label', 'pred', ...Array.from({ length: C }, (_, c) => `logit_${c}`), 'weight'];
  const lines: string[][] = [];
  for (let i = 0; i < n; i++) {
    const cells = [`r${i}`, String(rng.int(C)), String(rng.int(C))];
    for (let c = 0; c < C; c++) cells.push(spell((rng.next() - 0.5) * 10 ** (rng.int(12) - 6)));
    cells.push(spell(rng.next() * 3).replace(/^-/, ''));
    lines.push(cells);
  }
  const csv = [head, ...lines].map((l) => l.join(',')).join('\n') + '\n';
  const csvQuoted =
    [head, ...lines.map((l, i) => (i === 0 ? [`"${l[0]}"`, ...l.slice(1)] : l))].map((l) => l.join(',')).join('\r\n') +
    '\r\n';
  const tsv = [head, ...lines].map((l) => l.join('\t')).join('\n');
  const jsonl = lines
    .map((l) => JSON.stringify(Object.fromEntries(head.map((h, j) => [h, j === 0 ? l[j] : Number(l[j])]))))
    .join('\n');
  return { csv, csvQuoted, tsv, jsonl };
}

test('byte fast path = papaparse path = JSONL path = a slow Number() reference, on random inputs', async () => {
  for (const seed of [1, 2, 3]) {
    const C = 4;
    const f = randomFile(seed, 3000, C);
    const fast = await load('f.csv', f.csv);
    const papa = await load('q.csv', f.csvQuoted);
    const tsv = await load('t.tsv', f.tsv);
    const jsonl = await load('j.jsonl', f.jsonl);
    // slow reference: split + Number + softmax written out
    const ref: number[] = [];
    for (const line of f.csv.trim().split('\n').slice(1)) {
      const z = line
        .split(',')
        .slice(3, 3 + C)
        .map(Number);
      const m = Math.max(...z);
      const e = z.map((v) => Math.exp(v - m));
      const s = e.reduce((a, b) => a + b, 0);
      ref.push(...e.map((v) => v / s));
    }
    assert.deepEqual(arr(fast.d.probs), ref);
    for (const other of [papa, tsv, jsonl]) {
      assert.deepEqual(arr(other.d.probs), arr(fast.d.probs));
      assert.deepEqual(arr(other.d.weights), arr(fast.d.weights));
      assert.deepEqual(arr(other.d.labels), arr(fast.d.labels));
      assert.deepEqual(arr(other.d.preds), arr(fast.d.preds));
      assert.deepEqual(other.d.ids, fast.d.ids);
    }
    assert.deepEqual(
      arr(fast.d.lines),
      Array.from({ length: 3000 }, (_, i) => i + 2),
    );
    assert.deepEqual(arr(papa.d.lines), arr(fast.d.lines));
    assert.deepEqual(
      arr(jsonl.d.lines),
      Array.from({ length: 3000 }, (_, i) => i + 1),
    );
  }
});

test('blank and whitespace-only lines are skipped but counted, on the byte path and the quoted path alike', async () => {
  const body = 'label,prob_a,prob_b\na,0.5,0.5\n\n   \r\nb,0.1,0.9\n';
  const fast = await load('a.csv', body);
  const quoted = await load('b.csv', body.replace('a,0.5', '"a",0.5'));
  for (const o of [fast, quoted]) {
    assert.equal(o.d.n, 2);
    assert.deepEqual(arr(o.d.lines), [2, 5]);
  }
});

test('array columns on random files: the terms computed once the class set is known = those of the matrix', async () => {
  // JSONL rows with a `probs` or `logits` array: without `classes` the class of each entry is known
  // only once every row is read, so the rows are reduced at the end; with `classes`, as each is read.
  const rng = createRng(23);
  for (let rep = 0; rep < 24; rep++) {
    const C = 1 + rng.int(6);
    const logits = rng.next() < 0.5;
    const withClasses = rng.next() < 0.5;
    const withPred = rng.next() < 0.5;
    const skip = rng.next() < 0.5;
    const withWeight = rng.next() < 0.5;
    const score = (['msp', 'margin', 'entropy'] as const)[rep % 3];
    const lines: string[] = [];
    for (let i = 0; i < 40 + rng.int(200); i++) {
      // ties (quarters, equal logits) and zeros in some rows
      const tie = rng.next() < 0.3;
      let v = Array.from({ length: C }, () => (tie ? Math.round(rng.next() * 4) / 4 : rng.next()));
      if (!logits) {
        const sum = v.reduce((a, b) => a + b, 0) || 1;
        v = v.map((x) => x / sum);
      } else v = v.map((x) => (x - 0.5) * 20);
      const row: Record<string, unknown> = { label: rng.int(C), [logits ? 'logits' : 'probs']: v };
      if (withPred) row.pred = rng.int(C);
      if (withWeight) row.weight = rng.next() * 2;
      if (skip && rng.next() < 0.05) row[logits ? 'logits' : 'probs'] = [...v.slice(1), 'bad']; // a dropped row
      lines.push(JSON.stringify(row));
    }
    // every class occurs as a label, so that the labels 0…C−1 name the array entries
    for (let c = 0; c < C; c++)
      lines.push(
        JSON.stringify({
          label: c,
          [logits ? 'logits' : 'probs']: Array(C).fill(1 / C),
          ...(withPred ? { pred: c } : {}),
          ...(withWeight ? { weight: 1 } : {}),
        }),
      );
    const cfg: EvalConfig = { score, invalidRows: skip ? 'skip' : 'error' };
    if (withClasses) cfg.classes = Array.from({ length: C }, (_, c) => String(c));
    const r = await load('a.jsonl', lines.join('\n') + '\n', cfg);
    assert.equal(r.d.classes.length, C);
    assert.ok(r.d.probTerms);
  }
});
