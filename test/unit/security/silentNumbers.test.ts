// Inputs that used to give a number that looks fine but is wrong: each is now an error naming the
// file, line and column, or a warning naming the lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { EvalLensError, Warnings } from '../../../src/core/diagnostics';
import { evaluateFile } from '../../../src/core/evaluate';
import { loadClassification } from '../../../src/core/io/loadClassification';
import { resolveConfig } from '../../../src/core/config/load';
import { configOf } from '../helpers/ioConfig';
import { tmpFile } from '../helpers/io';

async function load(name: string, text: string, extra = {}) {
  const warnings = new Warnings();
  const r = await loadClassification(tmpFile(name, text), configOf(extra), warnings);
  return { ...r, warnings: warnings.list };
}

async function loadError(name: string, text: string, extra = {}): Promise<EvalLensError> {
  try {
    await load(name, text, extra);
  } catch (e) {
    assert.ok(e instanceof EvalLensError, String(e));
    return e;
  }
  assert.fail('expected an input error');
}

test('a negative probability is an input error with line and column, even when the row sums to 1', async () => {
  const e = await loadError('neg.csv', 'label,prob_a,prob_b\nb,0.2,0.8\na,1.5,-0.5\n');
  assert.equal(e.code, 'invalid-probability');
  assert.equal(e.location?.line, 3);
  assert.equal(e.location?.column, 'prob_a');
  assert.match(e.message, /neg\.csv:3.*prob_a.*expected a probability in \[0, 1\], got 1\.5/);
});

test('a probability above 1 in an array column, and in JSONL, is an input error', async () => {
  const e = await loadError('arr.csv', 'label,probs\n0,"[0.5,0.5]"\n1,"[-0.25,1.25]"\n');
  assert.equal(e.code, 'invalid-probability');
  assert.equal(e.location?.line, 3);
  const j = await loadError(
    'p.jsonl',
    '{"label":"a","prob_a":0.5,"prob_b":0.5}\n{"label":"b","prob_a":-0.1,"prob_b":1.1}\n',
  );
  assert.equal(j.location?.line, 2);
});

test('invalidRows "skip" drops a row with an out-of-range probability and lists it', async () => {
  const r = await load('skip.csv', 'label,prob_a,prob_b\na,0.9,0.1\nb,-0.5,1.5\n', { invalidRows: 'skip' });
  assert.equal(r.data.n, 1);
  assert.deepEqual(r.warnings.find((w) => w.code === 'rows-skipped')?.lines, [3]);
});

test('rounding of a float32 softmax (1 + 1e-7, -1e-9) is accepted as written', async () => {
  const r = await load('round.csv', 'label,prob_a,prob_b\na,1.0000001,-1e-9\nb,0.3,0.7\n');
  // the metrics see the value as written: the confidence (max probability) and −ln p of the true class
  assert.equal(r.data.probTerms!.score[0], 1.0000001);
  assert.equal(r.data.probTerms!.nllTerm[0], -Math.log(1.0000001));
});

test('logits may be any finite number', async () => {
  const r = await load('logits.csv', 'label,logit_a,logit_b\na,5,-3\nb,-2,7\n');
  assert.equal(r.data.n, 2);
});

test('a pred column that disagrees with the arg-max of the probabilities: a warning with count and first lines, saying which is used', async () => {
  const r = await load(
    'pred.csv',
    'label,pred,prob_a,prob_b\na,a,0.9,0.1\nb,a,0.2,0.8\nb,b,0.5,0.5\na,b,0.5,0.5\nb,a,0.4,0.6\n',
  );
  const w = r.warnings.find((x) => x.code === 'pred-not-argmax');
  assert.ok(w, JSON.stringify(r.warnings));
  assert.equal(w.count, 2, 'rows 3 and 6; a tie counts as agreeing when pred is one of the maxima');
  assert.deepEqual(w.lines, [3, 6]);
  assert.match(w.message, /`pred` column/);
  assert.match(w.message, /accuracy/);
  assert.equal(r.data.preds[1], 0, 'the pred column is used');
});

test('an array probability column with string labels: the class order is stated in a warning', async () => {
  const r = await load('arr-str.csv', 'label,probs\ncat,"[0.9,0.1]"\ndog,"[0.2,0.8]"\n');
  assert.deepEqual(r.data.classes, ['cat', 'dog']);
  const w = r.warnings.find((x) => x.code === 'class-order-assumed');
  assert.ok(w, JSON.stringify(r.warnings));
  assert.match(w.message, /cat, dog/);
  assert.match(w.message, /`classes`/);
  const given = await load('arr-str2.csv', 'label,probs\ncat,"[0.9,0.1]"\ndog,"[0.2,0.8]"\n', {
    classes: ['dog', 'cat'],
  });
  assert.equal(
    given.warnings.find((x) => x.code === 'class-order-assumed'),
    undefined,
  );
  assert.deepEqual(given.data.classes, ['dog', 'cat']);
});

test('label codes with leading zeros are text: 01 and 1, 007 and 7 are different labels; 1 and 1.0 are one number', async () => {
  const r = await load('codes.csv', 'label,pred\n01,1\n1,1\n007,7\n7,7\n');
  assert.deepEqual([...r.data.classes].sort(), ['007', '01', '1', '7']);
  const labels = [...r.data.labels].map((c) => r.data.classes[c]);
  const preds = [...r.data.preds].map((c) => r.data.classes[c]);
  assert.deepEqual(labels, ['01', '1', '007', '7']);
  assert.deepEqual(preds, ['1', '1', '7', '7']);
  const n = await load('nums.csv', 'label,pred\n1,1.0\n2,2\n');
  assert.deepEqual(n.data.classes, ['1', '2']);
  assert.deepEqual([...n.data.preds], [0, 1]);
});

test('class names __proto__, constructor, toString work as ordinary names, with a class→count map', async () => {
  const dir = dirname(tmpFile('x', ''));
  const sub = join(dir, 'proto');
  mkdirSync(sub, { recursive: true });
  const csv = join(sub, 'p.csv');
  writeFileSync(
    csv,
    'label,prob___proto__,prob_constructor,prob_toString\n__proto__,0.8,0.1,0.1\nconstructor,0.1,0.8,0.1\ntoString,0.1,0.1,0.8\n__proto__,0.1,0.8,0.1\n',
  );
  // Written as text: in an object literal `__proto__: 500` would not be a key.
  writeFileSync(
    join(sub, 'eval-lens.json'),
    '{"classes": ["__proto__", "constructor", "toString"], "trainCounts": {"__proto__": 500, "constructor": 50, "toString": 5}, "bootstrap": {"n": 0}}',
  );
  const r = await evaluateFile(csv);
  assert.equal(r.metrics.accuracy!.value, 3 / 4);
  assert.equal(r.metrics.acc_many!.value, 1 / 2);
  assert.equal(r.metrics.acc_medium!.value, 1);
  assert.equal(r.metrics.acc_few!.value, 1);
  const merged = resolveConfig([JSON.parse('{"trainCounts":{"__proto__":1,"constructor":2}}')]);
  assert.deepEqual(Object.entries(merged.trainCounts as object), [
    ['__proto__', 1],
    ['constructor', 2],
  ]);
  assert.equal(Object.getPrototypeOf(merged.trainCounts), Object.prototype);
});

test('a class→count CSV file with a class named constructor or __proto__', async () => {
  const dir = dirname(tmpFile('y', ''));
  const sub = join(dir, 'proto-csv');
  mkdirSync(sub, { recursive: true });
  const csv = join(sub, 'p.csv');
  writeFileSync(csv, 'label,pred\n__proto__,__proto__\nconstructor,__proto__\n');
  writeFileSync(join(sub, 'counts.csv'), 'class,count\nconstructor,10\n__proto__,200\n');
  writeFileSync(join(sub, 'eval-lens.json'), JSON.stringify({ trainCounts: 'counts.csv', bootstrap: { n: 0 } }));
  const r = await evaluateFile(csv);
  assert.equal(r.metrics.acc_many!.value, 1);
  assert.equal(r.metrics.acc_few!.value, 0);
});

test('all-zero weights: every weighted metric is null (macro_f1 included, never 0), with a warning', async () => {
  const csv = tmpFile('zerow.csv', 'label,pred,prob_a,prob_b,weight\na,a,0.9,0.1,0\nb,a,0.6,0.4,0\n');
  const r = await evaluateFile(csv, { overrides: { bootstrap: { n: 0 } } });
  for (const k of ['accuracy', 'balanced_accuracy', 'macro_f1', 'nll', 'brier', 'top1_accuracy']) {
    if (r.metrics[k]) assert.equal(r.metrics[k]!.value, null, k);
  }
  assert.equal(r.metrics.macro_f1!.value, null);
  const w = r.warnings.find((x) => x.code === 'zero-total-weight');
  assert.ok(w, JSON.stringify(r.warnings.map((x) => x.code)));
  assert.equal(w.column, 'weight');
});

test('weights whose sum overflows a double: an input error naming the weight column, not a silent null', async () => {
  const e = await loadError('bigw.csv', 'label,pred,weight\na,a,6e299\nb,a,6e299\na,a,1e308\n');
  assert.equal(e.code, 'weights-overflow');
  assert.equal(e.location?.column, 'weight');
  assert.equal(e.location?.line, 3, 'the line where the running sum passed the limit');
  assert.match(e.message, /divide/);
  // large but summable weights give the same accuracy as unit weights
  const ok = await evaluateFile(tmpFile('bigok.csv', 'label,pred,weight\na,a,1e290\nb,a,1e290\na,a,1e290\n'), {
    overrides: { bootstrap: { n: 0 } },
  });
  assert.ok(Math.abs(ok.metrics.accuracy!.value! - 2 / 3) < 1e-15, String(ok.metrics.accuracy!.value));
});

test('large integer ids in JSONL keep their digits (read as text), so they do not collide', async () => {
  const r = await load(
    'ids.jsonl',
    '{"id": 12345678901234567891, "label": "a", "pred": "a", "note": ""}\n{"id": 12345678901234567892, "label": "b", "pred": "a", "note": "x 12345678901234567893"}\n{"id": -98765432109876543210, "label": "a", "pred": "a", "note": "\\"12345678901234567894\\""}\n',
  );
  assert.deepEqual(r.data.ids?.toArray(), ['12345678901234567891', '12345678901234567892', '-98765432109876543210']);
  assert.equal(
    r.warnings.find((w) => w.code === 'duplicate-ids'),
    undefined,
  );
  const small = await load('ids2.jsonl', '{"id": 7, "label": "a", "pred": "a", "weight": 1234567890123456789}\n');
  assert.deepEqual(small.data.ids?.toArray(), ['7']);
  assert.equal(small.data.weights![0], Number('1234567890123456789'));
});

test('importance-weighted binary: a weight sum that overflows is an error at its line; all-zero weights are an error there', async () => {
  const big = tmpFile('iw-big.csv', 'label,score,weight\n1,0.9,6e299\n0,0.2,6e299\n1,0.4,1\n');
  await assert.rejects(evaluateFile(big, { overrides: { task: 'iw-binary', bootstrap: { n: 0 } } }), (e: unknown) => {
    assert.ok(e instanceof EvalLensError, String(e));
    assert.equal(e.code, 'weights-overflow');
    assert.equal(e.location?.line, 3);
    return true;
  });
  await assert.rejects(
    evaluateFile(tmpFile('iw-zero.csv', 'label,score,weight\n1,0.9,0\n0,0.2,0\n'), {
      overrides: { task: 'iw-binary', bootstrap: { n: 0 } },
    }),
    /expected some weight > 0/,
  );
});

test('ranking JSONL: large integer user and item ids keep their digits on both parsing paths', async () => {
  const dir = dirname(tmpFile('z', ''));
  const sub = join(dir, 'rank-ids');
  mkdirSync(sub, { recursive: true });
  // line 1 takes the byte-level fast path; line 2 (an escaped key) the JSON.parse path
  writeFileSync(
    join(sub, 'run.jsonl'),
    '{"user": 12345678901234567891, "items": [98765432109876543211, 2], "relevant": [98765432109876543211]}\n{"us\\u0065r": 12345678901234567892, "items": [2, 98765432109876543212], "relevant": [98765432109876543212]}\n',
  );
  writeFileSync(join(sub, 'eval-lens.json'), '{"task": "ranking", "k": [1], "bootstrap": {"n": 0}}');
  const r = await evaluateFile(join(sub, 'run.jsonl'));
  assert.deepEqual(r.perItem!.ids, ['12345678901234567891', '12345678901234567892']);
  assert.equal(r.metrics.mrr!.value, (1 + 1 / 2) / 2);
  assert.equal(
    r.warnings.find((w) => w.code === 'duplicate-user'),
    undefined,
  );
});
