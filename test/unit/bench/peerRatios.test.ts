// The ratios `npm run bench -- --peer` prints: parsed from the benches' report lines and the peer's
// stage lines as they are printed, divided as the goals state them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
// @ts-expect-error — a plain .mjs module of the bench folder, without type declarations
import { parsePeerStages, parseReportLines, peerRatios, ratioLines } from '../../../bench/peerRatios.mjs';

const cls = [
  '-- bootstrap off',
  '  reading (parse)                       1.500 s',
  'evaluateFile total (bootstrap off)        2.000 s    134.0 MB/s      100,000 rows/s  peak RSS 300 MB (1.17× file)',
  'evaluateFile total (as configured)        5.000 s     53.6 MB/s       40,000 rows/s  peak RSS 320 MB (1.25× file)',
].join('\n');
const rank =
  'evaluateFile total (bootstrap off)        1.000 s    100.0 MB/s      100,000 rows/s  peak RSS 250 MB (2.19× file)\n';
const parse =
  'loadClassification                        1.200 s    223.3 MB/s      166,667 rows/s  peak RSS 280 MB (1.09× file)\n';
const peer = [
  'cls.read_csv (pandas)                  4.000 s',
  'cls.to_numpy                           0.500 s',
  'cls.classification (sklearn)           1.500 s',
  'cls.bootstrap accuracy x1000           10.000 s',
  'cls.bootstrap aurc x1000               20.000 s',
  'rank.read_jsonl (json.loads)           3.000 s',
  'rank.per_user_metrics (python)         2.000 s',
  'TOTAL                                  41.000 s',
  'peak RSS                                 900 MB',
].join('\n');

test('report lines: seconds, peak RSS and its ratio to the file', () => {
  assert.deepEqual(parseReportLines(cls)['evaluateFile total (bootstrap off)'], {
    seconds: 2,
    rssMB: 300,
    fileRatio: 1.17,
  });
  assert.equal(Object.keys(parseReportLines(cls)).length, 2);
});

test('ratios: our time over the peer’s for the same work', () => {
  const r = peerRatios(
    { 'classification.bench.ts': cls, 'ranking.bench.ts': rank, 'parse.bench.ts': parse },
    parsePeerStages(peer),
  );
  assert.equal(r.classificationWithoutBootstrap.ratio, 2 / (4 + 0.5 + 1.5));
  assert.equal(r.bootstrap.ratio, (5 - 2) / (10 + 20));
  assert.equal(r.ranking.ratio, 1 / (3 + 2));
  assert.equal(r.read.ratio, 1.2 / 4);
  assert.equal(r.classificationPeakMemory.ratio, 1.17);
  assert.equal(r.rankingPeakMemory.ratio, 2.19);
  const lines = ratioLines(r, { ranking: { ratio: 0.25 } });
  assert.match(
    lines.find((l: string) => l.startsWith('ranking '))!,
    /0\.200 \(goal ≤ 0\.2, met\); last run 0\.250/,
  );
  assert.match(
    lines.find((l: string) => l.startsWith('bootstrap'))!,
    /0\.100 \(goal ≤ 0\.1, met\)/,
  );
});

test('a bench left out of the run gives n/a, not a number', () => {
  const r = peerRatios({}, parsePeerStages(peer));
  assert.equal(r.ranking.ratio, null);
  assert.match(ratioLines(r)[0]!, /n\/a \(goal ≤ 0\.3\)/);
});
