// Seeded fuzz test: a few hundred mutations of the example files (cells replaced by hostile
// values, bytes inserted and deleted, lines duplicated, dropped and truncated, other encodings,
// config values replaced; bytes of Parquet footers, page headers and pages, and of .npz zip
// directories and members). Every run either gives results that pass the results schema, or stops
// with an input error (the CLI's exit 1) whose message starts with the file it is about — and
// names the line for a problem in a row. No internal error, no input modified, no file written.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { EvalLensError } from '../../../src/core/diagnostics';
import { evaluateFile } from '../../../src/core/evaluate';
import { validateResults } from '../../../src/core/results/validate';
import { createRng } from '../../../src/core/stats/rng';
import { classificationParquet } from '../helpers/hostileBinaries';

const SEED = 20260124;
const CASES = 320;
const ROOT = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'eval-lens-fuzz-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The project's seeded generator, as a function: a failing case replays from its number. */
function rng(seed: number): () => number {
  const g = createRng(seed);
  return () => g.next();
}

function headLines(path: string, n: number): string {
  return readFileSync(join(ROOT, path), 'utf8').split('\n').slice(0, n).join('\n') + '\n';
}

interface Source {
  name: string;
  text: string;
  config: string;
}

const digitsConfig = readFileSync(join(ROOT, 'examples/digits-lt/eval-lens.json'), 'utf8');
const SOURCES: Source[] = [
  { name: 'logreg.csv', text: headLines('examples/digits-lt/logreg.csv', 40), config: digitsConfig },
  { name: 'logreg_logits.csv', text: headLines('examples/digits-lt/logreg_logits.csv', 40), config: digitsConfig },
  { name: 'logreg.jsonl', text: headLines('examples/digits-lt/logreg.jsonl', 40), config: digitsConfig },
  { name: 'knn.csv', text: headLines('examples/digits-lt/knn.csv', 40), config: '{"bootstrap": {"n": 0}}' },
  {
    name: 'iw.csv',
    text: headLines('examples/iw-breast-cancer/logreg.csv', 60),
    config: '{"task": "iw-binary", "populationSize": 342, "biasedSize": 87, "threshold": 0.5}',
  },
  {
    name: 'popularity.jsonl',
    text: headLines('examples/ranking-debian-deps/popularity.jsonl', 15),
    config: '{"task": "ranking", "k": [5, 10]}',
  },
];

const HOSTILE = [
  '',
  'NaN',
  'inf',
  '-Infinity',
  '-1',
  '1.5',
  '1e309',
  '-0.5',
  'abc',
  '"',
  '""',
  '\u0000',
  '=1+1',
  '__proto__',
  'constructor',
  '[[[[',
  '[]',
  '{}',
  '[1,2',
  '1,2',
  '\t',
  '\r',
  '01',
  '9'.repeat(30),
  'x'.repeat(5000),
  '\u001b[31m',
  '💥',
  '\ufeff',
];
const BYTES = [',', '"', '\n', '\r', '\t', '\u0000', '[', '{', '}', ']', ':', '\\', 'ÿ', '-', 'e', '.'];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

/** One mutation of a text input; returns the bytes to write and what was done (for a failure message). */
function mutate(r: () => number, text: string): { bytes: Buffer; what: string } {
  const lines = text.split('\n');
  const kind = Math.floor(r() * 9);
  const li = Math.floor(r() * (lines.length - 1));
  switch (kind) {
    case 0:
    case 1: {
      // a cell (CSV field or a JSON value) replaced by a hostile token
      const h = pick(r, HOSTILE);
      const line = lines[li]!;
      if (line.startsWith('{')) {
        const parts = line.split(/(?<=[:,[])/);
        const k = Math.floor(r() * parts.length);
        parts[k] = JSON.stringify(h) + (parts[k]!.match(/[,\]}]+$/)?.[0] ?? '');
        lines[li] = parts.join('');
      } else {
        const cells = line.split(',');
        cells[Math.floor(r() * cells.length)] = r() < 0.5 ? h : `"${h.replace(/"/g, '""')}"`;
        lines[li] = cells.join(',');
      }
      return { bytes: Buffer.from(lines.join('\n')), what: `line ${li + 1} cell -> ${JSON.stringify(h.slice(0, 20))}` };
    }
    case 2: {
      const p = Math.floor(r() * text.length);
      const b = pick(r, BYTES);
      return { bytes: Buffer.from(text.slice(0, p) + b + text.slice(p)), what: `insert ${JSON.stringify(b)} at ${p}` };
    }
    case 3: {
      const p = Math.floor(r() * text.length);
      const k = 1 + Math.floor(r() * 5);
      return { bytes: Buffer.from(text.slice(0, p) + text.slice(p + k)), what: `delete ${k} at ${p}` };
    }
    case 4:
      lines.splice(li, 0, lines[li]!);
      return { bytes: Buffer.from(lines.join('\n')), what: `duplicate line ${li + 1}` };
    case 5:
      lines.splice(li, 1);
      return { bytes: Buffer.from(lines.join('\n')), what: `drop line ${li + 1}` };
    case 6: {
      const p = Math.floor(r() * text.length);
      return { bytes: Buffer.from(text.slice(0, p)), what: `truncate at ${p}` };
    }
    case 7: {
      const enc = pick(r, ['utf16le-bom', 'utf16le', 'bom8', 'latin1', 'crlf'] as const);
      const b =
        enc === 'utf16le-bom'
          ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
          : enc === 'utf16le'
            ? Buffer.from(text, 'utf16le')
            : enc === 'bom8'
              ? Buffer.from('\ufeff' + text)
              : enc === 'latin1'
                ? Buffer.from(text.replace(/a/, 'é'), 'latin1')
                : Buffer.from(text.replace(/\n/g, '\r\n'));
      return { bytes: b, what: `encoding ${enc}` };
    }
    default: {
      // the header: a column renamed or removed
      const head = lines[0]!;
      if (head.startsWith('{')) return { bytes: Buffer.from(lines.slice(1).join('\n')), what: 'first record dropped' };
      const cells = head.split(',');
      const k = Math.floor(r() * cells.length);
      if (r() < 0.5) cells.splice(k, 1);
      else cells[k] = pick(r, ['label', 'pred', 'prob_x', '', 'id', '__proto__', 'weight']);
      lines[0] = cells.join(',');
      return { bytes: Buffer.from(lines.join('\n')), what: `header ${cells.join(',').slice(0, 60)}` };
    }
  }
}

/** A config with one value replaced (some cases), else the example's own. */
function mutateConfig(r: () => number, config: string): { text: string; what: string } {
  if (r() >= 0.15) return { text: config, what: 'config as is' };
  const obj = JSON.parse(config) as Record<string, unknown>;
  const keys = Object.keys(obj);
  const key =
    keys.length > 0 && r() < 0.8
      ? pick(r, keys)
      : pick(r, ['T', 'topK', 'k', 'eceBins', 'trainCounts', 'groups', 'classes']);
  const value = pick(r, [
    -1,
    0,
    1e9,
    'x',
    '../../../etc/passwd',
    '/etc/passwd',
    [],
    [0],
    {},
    { __proto__: 1 },
    null,
    10001,
    [100001],
    ['a', 'a'],
  ]);
  obj[key] = value;
  return { text: JSON.stringify(obj), what: `config ${key} = ${JSON.stringify(value)}` };
}

const sha = (p: string): string => createHash('sha256').update(readFileSync(p)).digest('hex');

/** Every file under `d` (relative paths). */
function listAll(d: string): string[] {
  return readdirSync(d, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(join(d, f)).isFile())
    .sort();
}

const ROW_CODES = new Set([
  'invalid-number',
  'invalid-probability',
  'ragged-row',
  'missing-value',
  'label-not-in-classes',
  'pred-not-in-classes',
  'invalid-array',
  'invalid-weight',
  'invalid-accept',
  'json-too-deep',
]);

test(
  `fuzz: ${CASES} seeded mutations of the example files give results or an input error naming the file`,
  { timeout: 120_000 },
  async () => {
    const r = rng(SEED);
    const t0 = Date.now();
    const written = new Set<string>();
    const codes = new Map<string, number>();
    let ok = 0;
    for (let i = 0; i < CASES; i++) {
      const src = SOURCES[i % SOURCES.length]!;
      const { bytes, what } = mutate(r, src.text);
      const cfg = mutateConfig(r, src.config);
      const sub = join(dir, String(i));
      mkdirSync(sub);
      const input = join(sub, src.name);
      const config = join(sub, 'eval-lens.json');
      writeFileSync(input, bytes);
      writeFileSync(config, cfg.text);
      written.add(relative(dir, input)).add(relative(dir, config));
      const before = [sha(input), sha(config)];
      const label = `case ${i} (${src.name}; ${what}; ${cfg.what})`;
      try {
        const res = await evaluateFile(input, { overrides: { bootstrap: { n: 0 } }, root: sub });
        assert.deepEqual(
          validateResults(JSON.parse(JSON.stringify(res))),
          [],
          `${label}: results valid against the schema`,
        );
        ok++;
      } catch (e) {
        if (!(e instanceof EvalLensError)) assert.fail(`${label}: internal error ${(e as Error)?.stack ?? String(e)}`);
        codes.set(e.code, (codes.get(e.code) ?? 0) + 1);
        assert.ok(e.location?.file, `${label}: the error names a file: ${e.message}`);
        assert.ok(e.message.includes(basename(e.location.file)), `${label}: the message names the file: ${e.message}`);
        if (ROW_CODES.has(e.code))
          assert.ok(
            e.location.line !== undefined && e.message.includes(`:${e.location.line}`),
            `${label}: a row problem names its line: ${e.message}`,
          );
        assert.doesNotMatch(
          e.message,
          // eslint-disable-next-line no-control-regex
          /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/,
          `${label}: no raw control characters in the message`,
        );
      }
      assert.deepEqual([sha(input), sha(config)], before, `${label}: the input and the config are not modified`);
    }
    assert.deepEqual(listAll(dir), [...written].sort(), 'no file written (no results, no *.tmp)');
    assert.ok(ok > CASES / 10, `some mutations still evaluate (${ok})`);
    assert.ok(codes.size >= 8, `many kinds of input error: ${JSON.stringify([...codes])}`);
    assert.ok(Date.now() - t0 < 60_000, `under a minute (${Date.now() - t0} ms)`);
  },
);

test('fuzz through the CLI: exit 1 with file and line, --out leaves nothing behind', () => {
  const r = rng(SEED + 1);
  const sub = join(dir, 'cli');
  mkdirSync(sub);
  writeFileSync(join(sub, 'eval-lens.json'), digitsConfig);
  const lines = SOURCES[0]!.text.split('\n');
  lines[5] = lines[5]!.replace(/,[^,]*$/, ',-0.25'); // a negative probability on line 6
  lines[9] = lines[9]!.replace(/,[^,]*,/, ',abc,'); // (after the first) a non-numeric cell
  const input = join(sub, 'bad.csv');
  writeFileSync(input, lines.join('\n'));
  const before = sha(input);
  const res = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'src/cli/main.ts'),
      'evaluate',
      input,
      '--bootstrap-n',
      '0',
      '--out',
      join(sub, 'bad.eval.json'),
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  assert.equal(res.status, 1, res.stderr);
  assert.match(
    res.stderr,
    new RegExp(
      `^eval-lens: ${input.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:6, column "prob_9": expected a probability in \\[0, 1\\], got -0\\.25`,
    ),
  );
  assert.doesNotMatch(res.stderr, /bug/);
  assert.equal(sha(input), before);
  assert.deepEqual(readdirSync(sub).sort(), ['bad.csv', 'eval-lens.json']);
  void r;
});

/** Byte positions of a Parquet file's parts: the footer (Thrift), page headers and page data. */
function binaryFuzzSources(): { name: string; bytes: Buffer; regions: [string, number, number][] }[] {
  const pq = readFileSync(join(ROOT, 'test/fixtures/parquet/digits-logreg-wide.snappy.parquet'));
  const footerLen = pq.readUInt32LE(pq.length - 8);
  const footerStart = pq.length - 8 - footerLen;
  const small = classificationParquet(12, 5);
  const smallFooter = small.length - 8 - small.readUInt32LE(small.length - 8);
  const npz = readFileSync(join(ROOT, 'test/fixtures/npz/digits-logreg-compressed.npz'));
  const eocd = npz.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const dir = npz.readUInt32LE(eocd + 16);
  return [
    {
      name: 'wide.parquet',
      bytes: pq,
      regions: [
        ['footer', footerStart, pq.length - 8],
        ['pages', 4, footerStart],
      ],
    },
    {
      name: 'small.parquet',
      bytes: small,
      regions: [
        ['footer', smallFooter, small.length - 8],
        ['page headers', 4, 40],
        ['pages', 4, smallFooter],
      ],
    },
    {
      name: 'logreg.npz',
      bytes: npz,
      regions: [
        ['zip directory', dir, npz.length],
        ['members', 0, dir],
      ],
    },
  ];
}

const BINARY_CASES = 150;

test(
  `fuzz: ${BINARY_CASES} seeded mutations of Parquet and .npz files (footer, page headers, zip directory) give results or an input error naming the file`,
  { timeout: 180_000 },
  async () => {
    const r = rng(SEED + 2);
    const sources = binaryFuzzSources();
    const config = join(ROOT, 'examples/digits-lt/eval-lens.json');
    const codes = new Map<string, number>();
    for (let i = 0; i < BINARY_CASES; i++) {
      const src = sources[i % sources.length]!;
      const [region, from, to] = pick(r, src.regions);
      const bytes = Buffer.from(src.bytes);
      const kind = Math.floor(r() * 4);
      const p = from + Math.floor(r() * (to - from));
      let what: string;
      if (kind === 0) {
        const v = Math.floor(r() * 256);
        bytes[p] = v;
        what = `${region}: byte ${p} = ${v}`;
      } else if (kind === 1) {
        bytes[p] ^= 1 << Math.floor(r() * 8);
        what = `${region}: bit flip at ${p}`;
      } else if (kind === 2) {
        // a 32-bit field set to a huge or boundary value
        const v = pick(r, [0, 1, 0x7fffffff, 0xffffffff, 0x80000000, 0xffff]);
        if (p + 4 <= bytes.length) bytes.writeUInt32LE(v >>> 0, p);
        what = `${region}: u32 at ${p} = ${v}`;
      } else {
        // a varint made long and large (Thrift sizes and counts)
        const n = Math.min(5, bytes.length - p);
        for (let k = 0; k < n - 1; k++) bytes[p + k] = 0xff;
        if (n > 0) bytes[p + n - 1] = 0x07;
        what = `${region}: varint 2^31-ish at ${p}`;
      }
      const sub = join(dir, `bin${i}`);
      mkdirSync(sub);
      const input = join(sub, src.name);
      writeFileSync(input, bytes);
      const label = `binary case ${i} (${src.name}; ${what})`;
      try {
        const res = await evaluateFile(input, { configPath: config, root: ROOT, overrides: { bootstrap: { n: 0 } } });
        assert.deepEqual(validateResults(JSON.parse(JSON.stringify(res))), [], `${label}: results valid`);
      } catch (e) {
        if (!(e instanceof EvalLensError)) assert.fail(`${label}: internal error ${(e as Error)?.stack ?? String(e)}`);
        codes.set(e.code, (codes.get(e.code) ?? 0) + 1);
        assert.ok(e.message.includes(basename(input)), `${label}: the message names the file: ${e.message}`);
      }
      rmSync(sub, { recursive: true, force: true });
    }
    assert.ok(codes.size >= 2, `several kinds of input error: ${JSON.stringify([...codes])}`);
  },
);
