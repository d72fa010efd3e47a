// The bad-input corpus (test/fixtures/bad): every file's exact outcome, from expected.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EvalLensError, Warnings } from '../../../../src/core/diagnostics';
import type { EvalConfig } from '../../../../src/core/config/types';
import { configOf } from '../../helpers/ioConfig';
import { loadClassification } from '../../../../src/core/io/loadClassification';
import type { ClassificationData } from '../../../../src/core/data/classificationData';

const DIR = join(__dirname, '../../../fixtures/bad');

interface Expected {
  file?: string;
  config?: EvalConfig;
  via?: 'evaluateFile';
  error?: { code: string; line: number | null; column: string | null; message: string };
  warnings?: { code: string; count: number; lines: number[] }[];
  rowsUsed?: number;
  rows?: number;
  twin?: string;
}

const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')) as Record<string, Expected | string>;

async function run(e: Expected, path: string): Promise<{ data: ClassificationData; warnings: Warnings; rows: number }> {
  if (e.via === 'evaluateFile') {
    const { evaluateFile } = await import('../../../../src/core/evaluate');
    await evaluateFile(path);
    throw new Error('evaluateFile was expected to fail');
  }
  const warnings = new Warnings();
  const r = await loadClassification(path, configOf(e.config), warnings);
  return { data: r.data, warnings, rows: r.rows };
}

function plain(d: ClassificationData): Record<string, unknown> {
  const { file: _file, ...rest } = d;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) out[k] = ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v;
  return out;
}

for (const [name, raw] of Object.entries(expected)) {
  if (name === '//' || typeof raw === 'string') continue;
  const e = raw;
  const path = join(DIR, e.file ?? name);
  test(`bad input ${name}`, async () => {
    if (e.error) {
      await assert.rejects(run(e, path), (err: unknown) => {
        assert.ok(err instanceof EvalLensError, `expected an EvalLensError, got ${String(err)}`);
        assert.equal(err.code, e.error!.code, err.message);
        assert.equal(err.location?.line ?? null, e.error!.line, err.message);
        assert.equal(err.location?.column ?? null, e.error!.column, err.message);
        assert.ok(
          err.message.includes(e.error!.message),
          `message ${JSON.stringify(err.message)} lacks ${JSON.stringify(e.error!.message)}`,
        );
        if (e.error!.line !== null)
          assert.ok(err.message.includes(`:${e.error!.line}`) || e.error!.line === 1, 'message names the line');
        return true;
      });
      return;
    }
    const { data, warnings, rows } = await run(e, path);
    const got = warnings.list.map((w) => ({ code: w.code, count: w.count, lines: w.lines }));
    assert.deepEqual(got, e.warnings ?? []);
    for (const w of warnings.list) assert.equal(w.line, w.lines?.[0]);
    if (e.rowsUsed !== undefined) assert.equal(data.n, e.rowsUsed);
    if (e.rows !== undefined) assert.equal(rows, e.rows);
    if (e.twin) {
      const twin = await run({ config: e.config }, join(DIR, e.twin));
      assert.deepEqual(plain(data), plain(twin.data));
    }
  });
}

test('skip mode drops exactly the invalid rows and keeps the lines of the others', async () => {
  const warnings = new Warnings();
  const r = await loadClassification(join(DIR, 'skip-mixed.csv'), configOf({ invalidRows: 'skip' }), warnings);
  assert.deepEqual(Array.from(r.data.lines), [2, 4, 8]);
  assert.deepEqual(r.data.ids?.toArray(), ['a1', 'a3', 'a7']);
  assert.deepEqual(Array.from(r.data.labels), [0, 2, 1]); // classes cat, dog, bird (suffix order)
  assert.match(
    warnings.list[0].message,
    /4 invalid rows skipped .* at lines 3, 5, 6, 7\. First: line 3, column "prob_dog": expected a finite probability, got "oops"\./,
  );
});
