// A CSV/TSV classification file read in parts on several threads gives exactly what one pass gives:
// data, line numbers, text columns, warnings and errors, on many random files (the threshold forced
// to 0 so that small files are cut into 2–3 parts; rows regions forced small so parts outgrow them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EvalLensError, Warnings } from '../../../../src/core/diagnostics';
import type { EvalConfig } from '../../../../src/core/config/types';
import { loadClassification, type LoadClassificationOptions } from '../../../../src/core/io/loadClassification';
import {
  pieceStarts,
  PARALLEL_READ_MIN_BYTES,
  readClassificationInParallel,
  type ParallelReadOptions,
} from '../../../../src/core/io/parallelClassification';
import { createRng, type Rng } from '../../../../src/core/stats/rng';
import { configOf } from '../../helpers/ioConfig';
import { tmpFile } from '../../helpers/io';
import { bundledWorker } from '../../helpers/bundledWorker';
import { assertTermsOfMatrix } from '../../helpers/probabilityTerms';

// The worker runs the bundled script, as in the extension and the CLI (a .ts worker does not load
// under tsx).
const workerFile = bundledWorker('src/core/io/classificationReadWorker.ts');

/** Everything a load gives, as plain values (typed arrays as arrays), or the error it throws. */
async function outcome(
  path: string,
  cfg: EvalConfig,
  keep: LoadClassificationOptions,
  parallel: ParallelReadOptions,
): Promise<unknown> {
  const warnings = new Warnings();
  try {
    const r = await loadClassification(path, configOf(cfg), warnings, undefined, keep, parallel);
    const plain = (o: object): Record<string, unknown> =>
      Object.fromEntries(
        Object.entries(o).map(([k, v]) => [
          k,
          ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : (v as unknown),
        ]),
      );
    const text = Object.fromEntries(Object.entries(r.text).map(([k, c]) => [k, plain(c)]));
    return { ...r, data: plain(r.data), text, warnings: warnings.list };
  } catch (e) {
    if (!(e instanceof EvalLensError)) throw e;
    return { error: { code: e.code, message: e.message, location: e.location, problems: e.problems } };
  }
}

function pick<T>(rng: Rng, xs: readonly T[]): T {
  return xs[rng.int(xs.length)];
}

interface RandomCase {
  text: string;
  name: string;
  cfg: EvalConfig;
  keep: LoadClassificationOptions;
  /** The file has class scores. */
  scored: boolean;
}

/** A random classification file and config: class names, score columns, roles, bad cells, blank lines, line ends. */
function randomCase(seed: number): RandomCase {
  const rng = createRng(seed);
  const C = 2 + rng.int(5);
  const numeric = rng.next() < 0.5;
  const classes = Array.from({ length: C }, (_, c) => (numeric ? String(c * 3) : `k${String.fromCharCode(97 + c)}`));
  const scores = pick(rng, ['probs', 'logits', 'none'] as const);
  const withPred = scores === 'none' || rng.next() < 0.5;
  const withWeight = rng.next() < 0.4;
  const withId = rng.next() < 0.6;
  const withGroup = rng.next() < 0.3;
  const withSplit = rng.next() < 0.3;
  const withCity = rng.next() < 0.5;
  const withScore = rng.next() < 0.3;
  const withAccept = rng.next() < 0.3;
  const tsv = rng.next() < 0.25;
  const delim = tsv ? '\t' : ',';
  const badRate = pick(rng, [0, 0, 0.01, 0.05, 0.6]);
  const n = 10 + rng.int(400);
  const crlf = pick(rng, ['never', 'always', 'some'] as const);
  const cfg: EvalConfig = { invalidRows: rng.next() < 0.5 ? 'skip' : 'error' };
  if (scores === 'none' || rng.next() < 0.4) {
    // with `classes` given, sometimes one fewer: a label of the last class is then invalid
    if (scores === 'none' ? rng.next() < 0.4 : true) cfg.classes = rng.next() < 0.8 ? classes : classes.slice(0, -1);
  }
  const keep: LoadClassificationOptions =
    rng.next() < 0.5 ? { keepOther: true } : withCity ? { keepText: ['city', 'label'] } : {};
  // Drawn from their own generator, so that the files above stay those of the earlier cases.
  const extra = createRng(5000 + seed);
  cfg.score = pick(extra, [undefined, 'msp', 'margin', 'entropy'] as const);
  if (extra.next() < 0.3) keep.keepProbabilities = true;
  const tieRate = pick(extra, [0, 0.2]);
  // Ids as text, as canonical integers (kept as numbers), or integers with a rare id that is not
  // one (a part, or the rest of a pass, then keeps every id as text).
  const idStyle = pick(extra, ['text', 'integer', 'mixed'] as const);

  const head = ['label'];
  if (withPred) head.push('pred');
  if (scores !== 'none') for (const c of classes) head.push(`${scores === 'probs' ? 'prob' : 'logit'}_${c}`);
  if (withWeight) head.push('weight');
  if (withId) head.push('id');
  if (withGroup) head.push('group');
  if (withScore) head.push('score');
  if (withAccept) head.push('accept');
  if (withSplit) head.push('split');
  if (withCity) head.push('city');
  head.push('other');

  const spell = (v: number): string => (rng.next() < 0.5 ? String(v) : v.toPrecision(1 + rng.int(12)));
  const bad = (): boolean => rng.next() < badRate;
  const lines: string[] = [head.join(delim)];
  for (let i = 0; i < n; i++) {
    if (rng.next() < 0.04) lines.push(pick(rng, ['', '  ', ' \r', '\t']));
    const cells: string[] = [];
    cells.push(bad() ? pick(rng, ['', 'zzz']) : pick(rng, classes) + (numeric && rng.next() < 0.1 ? '.0' : ''));
    if (withPred) cells.push(pick(rng, classes));
    if (scores === 'probs') {
      // some rows with tied probabilities (quarters), so that ranks and margins meet ties
      const tie = extra.next() < tieRate;
      const raw = classes.map(() => (tie ? Math.round(rng.next() * 4) / 4 : rng.next()));
      const sum = raw.reduce((s, x) => s + x, 0);
      const off = rng.next() < 0.05 ? 1.1 : 1; // some rows do not sum to 1
      for (const x of raw) cells.push(bad() ? pick(rng, ['bad', '1.5', 'NaN']) : spell((x / sum) * off));
    } else if (scores === 'logits') {
      const tie = extra.next() < tieRate;
      for (let c = 0; c < C; c++) {
        const z = (rng.next() - 0.5) * 8;
        cells.push(bad() ? 'inf' : spell(tie ? Math.round(z) : z));
      }
    }
    if (withWeight) cells.push(bad() ? '-1' : spell(rng.next() * 2));
    if (withId) {
      const k = rng.int(Math.max(2, n - 5));
      const odd = idStyle === 'mixed' && extra.next() < 0.02;
      cells.push(
        idStyle === 'text'
          ? `id${k}`
          : odd
            ? pick(extra, ['007', ' 5 ', '-3', '1e3', '123456789012345678'])
            : String(k),
      );
    }
    if (withGroup) cells.push(pick(rng, ['g1', 'g2', ' g3 ']));
    if (withScore) cells.push(bad() ? 'x' : spell(rng.next()));
    if (withAccept) cells.push(bad() ? '2' : pick(rng, ['0', '1', 'true', 'false', '1.0']));
    if (withSplit) cells.push(pick(rng, ['val', 'Test', '']));
    if (withCity) cells.push(pick(rng, ['Lyon', 'Oslo', 'São Paulo', '']));
    cells.push(String(rng.int(5)));
    if (bad() && rng.next() < 0.3) {
      if (rng.next() < 0.5) cells.push('extra');
      else cells.pop(); // a ragged row
    }
    lines.push(cells.join(delim));
  }
  if (rng.next() < 0.1) {
    // a quote in the data: the file cannot be cut at line feeds and is read in one pass
    const k = 1 + rng.int(lines.length - 1);
    lines[k] = lines[k].replace(/(^|[,\t])([^,\t]*)$/, '$1"$2"');
  }
  let text = '';
  for (const l of lines) text += l + (crlf === 'always' || (crlf === 'some' && rng.next() < 0.5) ? '\r\n' : '\n');
  if (rng.next() < 0.3) text = text.replace(/\r?\n$/, ''); // no line end after the last line
  if (rng.next() < 0.1) text = '\ufeff' + text;
  return { text, name: tsv ? 'p.tsv' : 'p.csv', cfg, keep, scored: scores !== 'none' };
}

test('parts read on several threads = one pass, on random files (data, lines, text, warnings, errors)', async () => {
  let split = 0;
  let errors = 0;
  let warned = 0;
  let reducedChecked = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const c = randomCase(seed);
    const path = tmpFile(c.name, c.text);
    const one = await outcome(path, c.cfg, c.keep, { minBytes: Infinity });
    const rng = createRng(1000 + seed);
    let parts = 0;
    const many = await outcome(path, c.cfg, c.keep, {
      minBytes: 0,
      threads: 2 + rng.int(2),
      pieces: rng.next() < 0.5 ? undefined : 2 + rng.int(6),
      claimHere: rng.next() < 0.5,
      workerFile,
      regionRows: rng.next() < 0.3 ? 1 + rng.int(40) : undefined,
      onSplit: (k) => (parts = k),
    });
    assert.deepEqual(many, one, `seed ${seed}`);
    if (c.scored && !(one as { error?: unknown }).error) {
      // the terms reduced by the parts (no matrix) = those of the matrix kept by one pass
      const config = configOf(c.cfg);
      const kept = await loadClassification(path, config, new Warnings(), undefined, {
        ...c.keep,
        keepProbabilities: true,
      });
      const reduced = await loadClassification(
        path,
        config,
        new Warnings(),
        undefined,
        { ...c.keep, keepProbabilities: false },
        { minBytes: 0, threads: 2, pieces: 3, workerFile, regionRows: seed % 2 ? 7 : undefined },
      );
      assertTermsOfMatrix(kept.data, reduced.data, config);
      reducedChecked++;
    }
    if (parts > 1) split++;
    if ((one as { error?: unknown }).error) errors++;
    else if ((one as { warnings: unknown[] }).warnings.length > 0) warned++;
  }
  // the cases cover the parallel path, errors and warnings
  assert.ok(split >= 50, `split ${split}`);
  assert.ok(errors >= 10, `errors ${errors}`);
  assert.ok(warned >= 10, `warned ${warned}`);
  assert.ok(reducedChecked >= 15, `reduced ${reducedChecked}`);
});

test('the first bad rows in file order are the error, when later parts have bad rows too', async () => {
  // 30 bad rows early on, then many: the list of 100 is joined across parts
  const rows = ['label,prob_a,prob_b'];
  for (let i = 0; i < 3000; i++) rows.push((i < 1000 ? i % 33 === 3 : i % 7 === 3) ? 'a,0.5,bad' : 'a,0.5,0.5');
  const mixed = tmpFile('m.csv', rows.join('\n') + '\n');
  // bad rows only in the last third: the first is found by a later part, with the file's line number
  const late = tmpFile('l.csv', rows.map((r, i) => (i > 0 && i <= 2000 ? 'a,0.5,0.5' : r)).join('\n') + '\n');
  for (const [path, firstLine, count] of [
    [mixed, 5, 100],
    [late, 2007, 100],
  ] as const) {
    for (const threads of [2, 3]) {
      const one = await outcome(path, {}, {}, { minBytes: Infinity });
      let parts = 0;
      const many = await outcome(
        path,
        {},
        {},
        {
          minBytes: 0,
          threads,
          pieces: 2 * threads,
          claimHere: false,
          workerFile,
          onSplit: (k) => (parts = k),
        },
      );
      assert.equal(parts, 2 * threads);
      assert.deepEqual(many, one);
      const e = (many as { error: { location: { line: number }; problems: unknown[]; message: string } }).error;
      assert.equal(e.location.line, firstLine);
      assert.equal(e.problems.length, count);
      assert.match(e.message, /At least 99 more invalid rows/);
    }
  }
});

test('a worker that cannot run: its part is read here with a warning, or an error when workers are required', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-lens-read-worker-'));
  const badWorker = join(dir, 'bad.js');
  writeFileSync(badWorker, 'throw new Error("cannot start");\n');
  const rows = ['id,label,prob_a,prob_b'];
  for (let i = 0; i < 500; i++) rows.push(`r${i % 400},${i % 3 ? 'a' : 'b'},0.25,0.75`);
  const path = tmpFile('w.csv', rows.join('\n') + '\n');
  const one = (await outcome(path, {}, {}, { minBytes: Infinity })) as { warnings: { code: string }[] };
  const fallback = (await outcome(
    path,
    {},
    {},
    { minBytes: 0, threads: 2, pieces: 4, claimHere: false, workerFile: badWorker },
  )) as {
    warnings: { code: string; message: string }[];
  };
  const last = fallback.warnings.shift()!;
  assert.equal(last.code, 'read-worker-fallback');
  assert.match(
    last.message,
    /^Part of w\.csv was read on the calling thread because the worker failed \(cannot start\)/,
  );
  assert.deepEqual(fallback, one);
  const before = process.env.EVAL_LENS_REQUIRE_WORKERS;
  process.env.EVAL_LENS_REQUIRE_WORKERS = '1';
  try {
    const withWorker = (file: string) =>
      loadClassification(
        path,
        configOf({}),
        new Warnings(),
        undefined,
        {},
        { minBytes: 0, threads: 2, workerFile: file },
      );
    await assert.rejects(withWorker(badWorker), /classification read worker failed: cannot start/);
    await assert.rejects(withWorker(join(dir, 'missing.js')), /classification read worker script not found/);
  } finally {
    if (before === undefined) delete process.env.EVAL_LENS_REQUIRE_WORKERS;
    else process.env.EVAL_LENS_REQUIRE_WORKERS = before;
  }
});

test('cancelling stops the parallel read', async () => {
  const rows = ['label,prob_a,prob_b'];
  for (let i = 0; i < 20000; i++) rows.push('a,0.5,0.5');
  const path = tmpFile('c.csv', rows.join('\n') + '\n');
  let reports = 0;
  await assert.rejects(
    loadClassification(
      path,
      configOf({}),
      new Warnings(),
      { report: () => reports++, isCancelled: () => reports > 0 },
      {},
      { minBytes: 0, threads: 2, workerFile },
    ),
    { name: 'CancelledError' },
  );
});

test('piece starts: equal shares, the last share of each thread cut in four; or exactly the pieces asked for', () => {
  const MiB = 2 ** 20;
  // 268 MB on 2 threads: 16 shares of 1/16, the last 2 in quarters
  const s = pieceStarts(268e6, 2);
  const sizes = [...s, 1].map((x, i) => x - (i === 0 ? 0 : s[i - 1]));
  assert.equal(sizes.length, 16 - 2 + 8);
  for (let i = 0; i < 14; i++) assert.ok(Math.abs(sizes[i] - 1 / 16) < 1e-12, `piece ${i}`);
  for (let i = 14; i < 22; i++) assert.ok(Math.abs(sizes[i] - 1 / 64) < 1e-12, `piece ${i}`);
  // a small file: one share per thread (no share under 2 MiB), each in quarters
  const small = pieceStarts(3 * MiB, 3);
  assert.deepEqual(
    small.map((x) => Math.round(x * 12)),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  );
  assert.deepEqual(pieceStarts(268e6, 2, 4), [0.25, 0.5, 0.75]);
});

test('a file of about 100 MB is read on one thread, with resamples or without', async () => {
  // 1 M rows × 10 classes of the scale bench: 100,888,974 bytes. The size decides before the file is
  // opened, so the path need not exist; a call that reads in parts opens it (and fails here).
  const size = 100_888_974;
  assert.ok(size < PARALLEL_READ_MIN_BYTES);
  const missing = join(mkdtempSync(join(tmpdir(), 'eval-lens-')), 'absent.csv');
  const read = (n: number, minBytes?: number): Promise<unknown> => {
    const config = { ...configOf({}), bootstrap: { ...configOf({}).bootstrap, n } };
    return readClassificationInParallel(missing, config, 'csv', size, 1024, {}, new Warnings(), undefined, {
      threads: 2,
      workerFile,
      minBytes,
    });
  };
  assert.equal(await read(0), null);
  assert.equal(await read(1000), null);
  await assert.rejects(read(0, size), EvalLensError);
  await assert.rejects(read(1000, size), EvalLensError);
});

test('one pass with resamples to come: the row arrays in shared memory, the same values as without', async () => {
  const rows = ['id,label,pred,prob_x,prob_y,prob_z,score,weight'];
  const rng = createRng(7);
  for (let r = 0; r < 500; r++) {
    const a = rng.next();
    const b = (1 - a) * rng.next();
    rows.push(`${r},${'xyz'[r % 3]},${'xyz'[(r * 7) % 3]},${a},${b},${1 - a - b},${rng.next()},${1 + (r % 4)}`);
  }
  const path = tmpFile('shared.csv', rows.join('\n') + '\n');
  const load = async (n: number) => {
    const config = { ...configOf({}), bootstrap: { ...configOf({}).bootstrap, n } };
    return loadClassification(path, config, new Warnings(), undefined, {}, { workerFile: null });
  };
  const plain = (await load(0)).data;
  const shared = (await load(1000)).data;
  const arrays = (d: typeof plain) => ({
    lines: d.lines,
    labels: d.labels,
    preds: d.preds,
    weights: d.weights!,
    nllTerm: d.probTerms!.nllTerm,
    brierTerm: d.probTerms!.brierTerm,
    trueRank: d.probTerms!.trueRank,
    score: d.probTerms!.score,
  });
  for (const [name, a] of Object.entries(arrays(shared))) {
    assert.ok(a.buffer instanceof SharedArrayBuffer, `${name} in shared memory with resamples`);
    const b = arrays(plain)[name as keyof ReturnType<typeof arrays>];
    assert.ok(!(b.buffer instanceof SharedArrayBuffer), `${name} in ordinary memory without`);
    assert.deepEqual(Array.from(a), Array.from(b), name);
  }
  // every other value the same too (typed arrays compared by their values)
  const values = (d: typeof plain): unknown =>
    JSON.parse(JSON.stringify(d, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v)));
  assert.deepEqual(values(shared), values(plain));
});

test('keepIds false with ids that count the rows (stored only once one breaks the count): the same data, warnings and errors', async () => {
  const cases: { name: string; id: (r: number) => string; skip?: boolean; bad?: number[]; repeats: number[][] }[] = [
    { name: 'row numbers from 100', id: (r) => String(100 + r), repeats: [] },
    { name: 'from -3', id: (r) => String(r - 3), repeats: [] },
    { name: 'a repeat at the end', id: (r) => String(r === 599 ? 5 : r), repeats: [[601]] },
    { name: 'a gap, then a repeat', id: (r) => String(r < 300 ? r : r + 1 === 450 ? 17 : r + 1), repeats: [[451]] },
    { name: 'text from row 300', id: (r) => (r < 300 ? String(r) : r === 500 ? '12' : `t${r}`), repeats: [[502]] },
    { name: 'a not canonical integer', id: (r) => (r === 250 ? '0250' : String(r)), repeats: [] },
    // invalid rows dropped: at slot 0 (the next row's id starts the count), and in the middle
    { name: 'dropped rows', id: (r) => String(r), skip: true, bad: [0, 3, 400], repeats: [] },
    { name: 'dropped rows keep their slot', id: (r) => String(r === 5 ? 3 : r), skip: true, bad: [3], repeats: [] },
    { name: 'invalid rows fail', id: (r) => String(r), bad: [2], repeats: [] },
  ];
  for (const c of cases) {
    const rows = ['id,label,pred,prob_x,prob_y'];
    for (let r = 0; r < 600; r++) rows.push(`${c.id(r)},${c.bad?.includes(r) ? 'zzz' : r % 3 ? 'x' : 'y'},x,0.75,0.25`);
    const path = tmpFile('counted.csv', rows.join('\n') + '\n');
    const cfg: EvalConfig = c.skip ? { invalidRows: 'skip' } : {};
    for (const parallel of [{ workerFile: null }, { minBytes: 0, threads: 3, pieces: 4, workerFile }]) {
      const kept = (await outcome(path, cfg, {}, parallel)) as {
        data?: Record<string, unknown>;
        warnings?: { code: string; lines?: number[] }[];
        error?: unknown;
      };
      const dropped = (await outcome(path, cfg, { keepIds: false }, parallel)) as typeof kept;
      if (kept.error) {
        assert.deepEqual(dropped, kept, c.name);
        continue;
      }
      assert.equal(dropped.data!.ids, null, c.name);
      assert.deepEqual({ ...dropped.data, ids: kept.data!.ids }, kept.data, c.name);
      assert.deepEqual(dropped.warnings, kept.warnings, c.name);
      const repeats = kept.warnings!.filter((w) => w.code === 'duplicate-ids').map((w) => w.lines);
      assert.deepEqual(repeats, c.repeats, c.name);
    }
  }
});

test('keepIds false: no ids in the data, the same duplicate-id warning and every other value, in one pass and in parts', async () => {
  for (const ids of [
    ['7', '3', '7', '12', '3', '5'], // integers: kept as numbers while read
    ['a', '3', 'a', 'b', '3', 'c'], // text
  ]) {
    const rows = ['id,label,pred,prob_x,prob_y'];
    for (let r = 0; r < 600; r++)
      rows.push(`${ids[r % ids.length]}${r >= 6 ? r : ''},${r % 3 ? 'x' : 'y'},x,0.75,0.25`);
    const path = tmpFile('ids.csv', rows.join('\n') + '\n');
    for (const parallel of [{ workerFile: null }, { minBytes: 0, threads: 3, pieces: 4, workerFile }]) {
      const kept = (await outcome(path, {}, {}, parallel)) as { data: Record<string, unknown>; warnings: unknown[] };
      const dropped = (await outcome(path, {}, { keepIds: false }, parallel)) as typeof kept;
      assert.ok(kept.data.ids, 'the ids are kept by default');
      assert.equal(dropped.data.ids, null);
      assert.deepEqual({ ...dropped.data, ids: kept.data.ids }, kept.data);
      assert.deepEqual(dropped.warnings, kept.warnings);
      assert.deepEqual(
        (kept.warnings as { code: string; lines?: number[] }[])
          .filter((w) => w.code === 'duplicate-ids')
          .map((w) => w.lines),
        [[4, 6]],
      );
    }
  }
});
