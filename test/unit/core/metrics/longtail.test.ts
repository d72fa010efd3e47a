import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  aggregateClassification,
  aggregateLongTail,
  groupsFromBoundaries,
  groupsFromMap,
  prepareClassification,
  prepareLongTail,
  rankByCount,
  resolveGroups,
  resolveTrainDistribution,
  shotOfCounts,
  trainDistributionFromValues,
  EvalLensError,
  type ClassificationData,
} from '../../helpers/classificationMetrics';
import { classNames, close, config, createRng, makeData, randomData } from '../../helpers/classification';

// ---------------------------------------------------------------------------------------------
// The worked example of train-frequency reweighting for long-tail evaluation (CIFAR-100-LT, boundary [69]).
// ---------------------------------------------------------------------------------------------

/**
 * Train frequencies for 100 classes, non-increasing in class index (so rank = index + 1), holding
 * exactly the seed's per-sample weights at the classes of its example rows, linear in between.
 */
function seedClassWeights(): number[] {
  const anchors: [number, number][] = [
    [0, 0.0461],
    [5, 0.046],
    [10, 0.044],
    [20, 0.042],
    [30, 0.04],
    [40, 0.038],
    [50, 0.037],
    [70, 0.0011],
    [75, 0.0008],
    [80, 0.0006],
    [99, 0.0005],
  ];
  const w: number[] = [];
  for (let c = 0; c < 100; c++) {
    const j = anchors.findIndex(([a]) => a >= c);
    const [c1, w1] = anchors[j];
    if (c1 === c) w.push(w1);
    else {
      const [c0, w0] = anchors[j - 1];
      w.push(w0 + ((w1 - w0) * (c - c0)) / (c1 - c0));
    }
  }
  return w;
}

const seedRows = makeData({
  classes: classNames(100),
  labels: [5, 10, 20, 30, 40, 50, 70, 75, 80, 99],
  preds: [5, 10, 22, 30, 42, 51, 71, 75, 82, 99],
});

test('the long-tail reweighting worked example: head 0.117/0.247 = 0.4737, tail 0.0017/0.0030 = 0.5667', () => {
  const cw = seedClassWeights();
  // the seed's per-sample weights are its class weights
  assert.deepEqual(
    [5, 10, 20, 30, 40, 50].map((c) => cw[c]),
    [0.046, 0.044, 0.042, 0.04, 0.038, 0.037],
  );
  assert.deepEqual(
    [70, 75, 80, 99].map((c) => cw[c]),
    [0.0011, 0.0008, 0.0006, 0.0005],
  );
  const cfg = config({ classWeights: cw, groups: [69] });
  const train = trainDistributionFromValues(cw, seedRows.classes, 'classWeights', cfg);
  const groups = groupsFromBoundaries([69], train, seedRows.classes, cfg);
  assert.deepEqual(groups.names, ['head', 'tail']);
  assert.equal(groups.groupOf[68], 0); // class 68 = rank 69 → head
  assert.equal(groups.groupOf[69], 1); // class 69 = rank 70 → tail
  const stats = aggregateClassification(prepareClassification(seedRows)).stats;
  const lt = aggregateLongTail(prepareLongTail(100, train, groups), stats);
  // numerator and denominator as the seed prints them
  assert.equal(lt['weighted_error_group.head']!.toFixed(4), (0.117 / 0.247).toFixed(4));
  assert.equal(lt['weighted_error_group.head']!.toFixed(4), '0.4737');
  assert.equal(lt['weighted_error_group.tail']!.toFixed(4), (0.0017 / 0.003).toFixed(4));
  assert.equal(lt['weighted_error_group.tail']!.toFixed(4), '0.5667');
  // unweighted (uniform train distribution): 3/6 and 2/4
  const uniform = trainDistributionFromValues(new Array(100).fill(1), seedRows.classes, 'trainCounts', cfg);
  const ltU = aggregateLongTail(
    prepareLongTail(100, uniform, groupsFromBoundaries([69], train, seedRows.classes, cfg)),
    stats,
  );
  close(ltU['weighted_error_group.head'], 3 / 6, 1e-9);
  close(ltU['weighted_error_group.tail'], 2 / 4, 1e-9);
  // the class means: every class has one row here
  close(lt['acc_group.head'], 3 / 6);
  close(lt['acc_group.tail'], 2 / 4);
  // weighted accuracy = Σ w·correct / Σ w over all 10 rows
  close(lt.weighted_accuracy, (0.046 + 0.044 + 0.04 + 0.0008 + 0.0005) / (0.247 + 0.003), 1e-9);
});

// ---------------------------------------------------------------------------------------------
// Shot groups, groups, ranks: hand-computed.
// ---------------------------------------------------------------------------------------------

test('stable rank by count descending (ties keep class order)', () => {
  const { rank, order } = rankByCount([5, 9, 5, 9, 1]);
  assert.deepEqual(Array.from(rank), [3, 1, 4, 2, 5]);
  assert.deepEqual(Array.from(order), [1, 3, 0, 2, 4]);
});

test('shot groups: many > 100, medium 20..100, few < 20 (boundaries inclusive in medium)', () => {
  assert.deepEqual(Array.from(shotOfCounts([500, 101, 100, 20, 19, 0])), [0, 0, 1, 1, 2, 2]);
  assert.deepEqual(Array.from(shotOfCounts([50, 10, 5], { many: 40, few: 6 })), [0, 1, 2]);
});

test('acc_many/medium/few are class means of acc_c, not row means', () => {
  // class 0 (many): 4 rows, 3 correct; class 1 (many): 1 row, 0 correct; class 2 (medium): 2 rows, 1 correct;
  // class 3 (few): no test rows
  const d = makeData({ classes: classNames(4), labels: [0, 0, 0, 0, 1, 2, 2], preds: [0, 0, 0, 1, 0, 2, 0] });
  const cfg = config();
  const train = trainDistributionFromValues([300, 200, 50, 5], d.classes, 'trainCounts', cfg);
  const lt = aggregateLongTail(
    prepareLongTail(4, train, null),
    aggregateClassification(prepareClassification(d)).stats,
  );
  close(lt.acc_many, (3 / 4 + 0 / 1) / 2); // the row mean would be 3/5
  close(lt.acc_medium, 1 / 2);
  assert.equal(lt.acc_few, null);
  // weighted accuracy: w^trn = n_c/N, N = 555
  close(
    lt.weighted_accuracy,
    ((300 / 555) * 3 + (50 / 555) * 1) / ((300 / 555) * 4 + (200 / 555) * 1 + (50 / 555) * 2),
  );
});

test('groups: boundary lists on the rank (names g1…gm), maps with groupNames order', () => {
  const classes = classNames(6);
  const cfg = config();
  // counts not sorted by class: rank order = 2,0,4,1,5,3
  const train = trainDistributionFromValues([50, 20, 90, 1, 30, 10], classes, 'trainCounts', cfg);
  const g = groupsFromBoundaries([2, 4], train, classes, cfg);
  assert.deepEqual(g.names, ['g1', 'g2', 'g3']);
  assert.deepEqual(Array.from(g.groupOf), [0, 1, 0, 2, 1, 2]);
  const named = groupsFromBoundaries([3], train, classes, config({ groupNames: ['frequent', 'rare'] }));
  assert.deepEqual(named.names, ['frequent', 'rare']);
  const m = groupsFromMap(
    { 0: 'x', 1: 'y', 2: 'x', 3: 'z', 4: 'y', 5: 'z' },
    classes,
    config({ groupNames: ['z', 'y', 'x'] }),
  );
  assert.deepEqual(m.names, ['z', 'y', 'x']);
  assert.deepEqual(Array.from(m.groupOf), [2, 1, 2, 0, 1, 0]);
});

test('classWeights with trainTotal become rounded counts; without it there are no shot groups', () => {
  const classes = classNames(3);
  const withTotal = trainDistributionFromValues([0.5, 0.3, 0.2], classes, 'classWeights', config({ trainTotal: 1000 }));
  assert.deepEqual(Array.from(withTotal.counts!), [500, 300, 200]);
  const shares = trainDistributionFromValues([0.5, 0.3, 0.2], classes, 'classWeights', config());
  assert.equal(shares.counts, null);
  assert.equal(prepareLongTail(3, shares, null).shotOf, null);
  close(shares.shares[1], 0.3);
});

// ---------------------------------------------------------------------------------------------
// Config errors and files.
// ---------------------------------------------------------------------------------------------

test('inconsistent train config: clear errors naming the config file and the key', () => {
  const classes = ['cat', 'dog', 'eel'];
  const cfg = config();
  const msg = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      assert.ok(e instanceof EvalLensError);
      return e.message;
    }
    throw new Error('no error');
  };
  const m1 = msg(() => trainDistributionFromValues([1, 2], classes, 'trainCounts', cfg));
  assert.match(m1, /^\/work\/eval-lens\.json: `trainCounts` has 2 entries, but there are 3 classes \(cat, dog, eel\)/);
  assert.match(
    msg(() => trainDistributionFromValues({ cat: 1, dog: 2, emu: 3 }, classes, 'trainCounts', cfg)),
    /`trainCounts` names class "emu", which is not one of the 3 classes/,
  );
  assert.match(
    msg(() => trainDistributionFromValues({ cat: 1, dog: 2 }, classes, 'trainCounts', cfg)),
    /`trainCounts` has no entry for class "eel"/,
  );
  assert.match(
    msg(() => trainDistributionFromValues([1, -2, 3], classes, 'classWeights', cfg)),
    /`classWeights` must be ≥ 0 for every class, but class "dog" has -2/,
  );
  assert.match(
    msg(() => trainDistributionFromValues([0, 0, 0], classes, 'trainCounts', cfg)),
    /`trainCounts` sums to 0/,
  );
  const train = trainDistributionFromValues([3, 2, 1], classes, 'trainCounts', cfg);
  assert.match(
    msg(() => groupsFromBoundaries([3], train, classes, cfg)),
    /`groups` boundaries must be integers in 1\.\.2/,
  );
  assert.match(
    msg(() => groupsFromBoundaries([2, 1], train, classes, cfg)),
    /strictly increasing/,
  );
  assert.match(
    msg(() => groupsFromBoundaries([1], null, classes, cfg)),
    /needs `trainCounts` or `classWeights`/,
  );
  assert.match(
    msg(() => groupsFromBoundaries([1], train, classes, config({ groupNames: ['a', 'b', 'c'] }))),
    /`groupNames` has 3 names, but `groups` defines 2 groups/,
  );
  assert.match(
    msg(() => groupsFromMap({ cat: 'h', dog: 'h' }, classes, cfg)),
    /`groups` has no group for class "eel"/,
  );
  assert.match(
    msg(() => groupsFromMap({ cat: 'h', dog: 'h', eel: 't' }, classes, config({ groupNames: ['h'] }))),
    /`groupNames` does not list group "t"/,
  );
});

test('trainCounts and groups from files (JSON array, JSON map, CSV class,count, one-column CSV), relative to baseDir', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'evallens-lt-'));
  const classes = ['a', 'b', 'c'];
  writeFileSync(join(dir, 'counts.json'), '[30, 20, 10]');
  writeFileSync(join(dir, 'map.json'), '{"c": 10, "a": 30, "b": 20}');
  writeFileSync(join(dir, 'counts.csv'), 'class,count\na,30\nb,20\nc,10\n');
  writeFileSync(join(dir, 'one.csv'), 'count\n30\n20\n10\n');
  writeFileSync(join(dir, 'groups.json'), '{"a": "head", "b": "head", "c": "tail"}');
  writeFileSync(join(dir, 'bad.csv'), 'class,count\na,30\nb,x\nc,10\n');
  const cfgFile = join(dir, 'eval-lens.json');
  for (const f of ['counts.json', 'map.json', 'counts.csv', 'one.csv']) {
    const t = await resolveTrainDistribution(classes, config({ trainCounts: f, configFile: cfgFile }), dir);
    assert.deepEqual(Array.from(t!.counts!), [30, 20, 10], f);
  }
  const g = await resolveGroups(classes, config({ groups: 'groups.json', configFile: cfgFile }), null, dir);
  assert.deepEqual(g!.names, ['head', 'tail']);
  await assert.rejects(
    resolveTrainDistribution(classes, config({ trainCounts: 'bad.csv', configFile: cfgFile }), dir),
    /bad\.csv:3: expected a number for class "b" in `trainCounts`, got "x"/,
  );
  await assert.rejects(
    resolveTrainDistribution(classes, config({ trainCounts: 'missing.json', configFile: cfgFile }), dir),
    /`trainCounts` names the file .*missing\.json, which cannot be read/,
  );
  await assert.rejects(
    resolveTrainDistribution(
      classes,
      config({ trainCounts: [1, 2, 3], classWeights: [1, 2, 3], configFile: cfgFile }),
      dir,
    ),
    /cannot be given together/,
  );
  assert.equal(await resolveTrainDistribution(classes, config(), dir), null);
});

// ---------------------------------------------------------------------------------------------
// Slow reference vs fast code on random data, with and without weights, and bootstrap counts.
// ---------------------------------------------------------------------------------------------

function referenceLongTail(
  d: ClassificationData,
  counts: number[],
  groupOf: number[],
  names: string[],
  thresholds = { many: 100, few: 20 },
  counts2?: number[],
) {
  const C = d.classes.length;
  const N = counts.reduce((a, b) => a + b, 0);
  const mult = (i: number) => (counts2 ? counts2[i] : 1);
  const w = (i: number) => (d.weights ? d.weights[i] : 1) * mult(i);
  const accOf = (c: number) => {
    let s = 0;
    let k = 0;
    for (let i = 0; i < d.n; i++)
      if (d.labels[i] === c) {
        s += w(i);
        if (d.preds[i] === c) k += w(i);
      }
    return s > 0 ? k / s : null;
  };
  const mean = (cs: number[]) => {
    const a = cs.map(accOf).filter((x): x is number => x !== null);
    return a.length ? a.reduce((x, y) => x + y, 0) / a.length : null;
  };
  const all = Array.from({ length: C }, (_, c) => c);
  const out: Record<string, number | null> = {
    acc_many: mean(all.filter((c) => counts[c] > thresholds.many)),
    acc_medium: mean(all.filter((c) => counts[c] >= thresholds.few && counts[c] <= thresholds.many)),
    acc_few: mean(all.filter((c) => counts[c] < thresholds.few)),
  };
  names.forEach((g, gi) => (out[`acc_group.${g}`] = mean(all.filter((c) => groupOf[c] === gi))));
  let num = 0;
  let den = 0;
  for (let i = 0; i < d.n; i++) {
    const wt = w(i) * (counts[d.labels[i]] / N);
    den += wt;
    if (d.preds[i] === d.labels[i]) num += wt;
  }
  out.weighted_accuracy = num / den;
  names.forEach((g, gi) => {
    let e = 0;
    let s = 0;
    let rows = 0;
    for (let i = 0; i < d.n; i++) {
      if (groupOf[d.labels[i]] !== gi) continue;
      const wt = w(i) * (counts[d.labels[i]] / N);
      rows += w(i);
      s += wt;
      if (d.preds[i] !== d.labels[i]) e += wt;
    }
    out[`weighted_error_group.${g}`] = rows > 0 ? e / (s + 1e-12) : 1.0;
  });
  return out;
}

test('long-tail aggregate = slow reference on random data (weights, counts)', () => {
  const rng = createRng(11);
  for (let rep = 0; rep < 8; rep++) {
    const C = 3 + rng.int(12);
    const d = randomData(rng, 50 + rng.int(200), C, { weighted: rep % 2 === 1, noisyPred: true });
    const counts = Array.from({ length: C }, () => 1 + rng.int(300));
    const cfg = config();
    const train = trainDistributionFromValues(counts, d.classes, 'trainCounts', cfg);
    const boundaries = [Math.max(1, Math.floor(C / 3)), Math.max(2, Math.floor((2 * C) / 3))].filter(
      (b, i, a) => b < C && (i === 0 || b > a[i - 1]),
    );
    const groups = groupsFromBoundaries(boundaries, train, d.classes, cfg);
    const setup = prepareLongTail(C, train, groups);
    const prep = prepareClassification(d);
    const mult = rep >= 4 ? Array.from({ length: d.n }, () => rng.int(3)) : undefined;
    const fast = aggregateLongTail(setup, aggregateClassification(prep, mult ? Float64Array.from(mult) : null).stats);
    const ref = referenceLongTail(d, counts, Array.from(groups.groupOf), groups.names, undefined, mult);
    assert.deepEqual(Object.keys(fast).sort(), Object.keys(ref).sort());
    for (const k of Object.keys(ref)) close(fast[k], ref[k], 1e-10, `rep ${rep} ${k}`);
  }
});
