// The ratios `npm run bench -- --peer` prints and keeps: each of our measurements divided by the
// Python peer's (pandas + scikit-learn) for the same work on the same files, measured in one run —
// absolute times drift on a shared machine, ratios measured side by side much less.

/** Seconds and peak memory of `report()` lines (bench/report.ts): name → { seconds, rssMB, fileRatio }. */
export function parseReportLines(text) {
  const out = {};
  const re = /^(\S.*?)\s+([\d.]+) s\s+[\d.]+ MB\/s.*peak RSS (\d+) MB \(([\d.]+)× file\)/gm;
  for (const m of text.matchAll(re))
    out[m[1].trim()] = { seconds: Number(m[2]), rssMB: Number(m[3]), fileRatio: Number(m[4]) };
  return out;
}

/** The peer's stage lines (`name   1.234 s`): name → seconds. */
export function parsePeerStages(text) {
  const out = {};
  for (const m of text.matchAll(/^(\S.*?)\s+([\d.]+) s\s*$/gm)) out[m[1].trim()] = Number(m[2]);
  return out;
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/**
 * The goals' ratios from our bench outputs (by bench file name) and the peer's stages. A ratio
 * whose inputs are missing is null (that bench was filtered out, or a line changed its name).
 */
export function peerRatios(ours, peer) {
  const cls = parseReportLines(ours['classification.bench.ts'] ?? '');
  const rank = parseReportLines(ours['ranking.bench.ts'] ?? '');
  const parse = parseReportLines(ours['parse.bench.ts'] ?? '');
  const stages = Object.entries(peer);
  const peerCls = stages.filter(([k]) => k.startsWith('cls.') && !k.startsWith('cls.bootstrap'));
  const peerBoot = stages.filter(([k]) => k.startsWith('cls.bootstrap'));
  const peerRank = stages.filter(([k]) => k.startsWith('rank.'));
  const clsOff = cls['evaluateFile total (bootstrap off)'];
  const clsOn = cls['evaluateFile total (as configured)'];
  const rankOff = rank['evaluateFile total (bootstrap off)'];
  const ratio = (a, b) => (a !== undefined && b > 0 ? a / b : null);
  return {
    classificationWithoutBootstrap: {
      ratio: ratio(clsOff?.seconds, sum(peerCls.map(([, s]) => s))),
      goal: 0.3,
      what: 'whole classification evaluation, bootstrap off, vs the peer’s cls.* stages without its bootstrap',
    },
    bootstrap: {
      ratio: ratio(clsOn && clsOff ? clsOn.seconds - clsOff.seconds : undefined, sum(peerBoot.map(([, s]) => s))),
      goal: 0.1,
      what: 'our 1,000 resamples of every key vs the peer’s accuracy + AURC bootstrap',
    },
    ranking: {
      ratio: ratio(rankOff?.seconds, sum(peerRank.map(([, s]) => s))),
      goal: 0.2,
      what: 'whole ranking evaluation, bootstrap off, vs the peer’s rank.* stages',
    },
    read: {
      ratio: ratio(parse.loadClassification?.seconds, peer['cls.read_csv (pandas)']),
      goal: null,
      what: 'reading the 268 MB CSV vs pandas read_csv (Polars: see read.bench)',
    },
    classificationPeakMemory: { ratio: clsOff?.fileRatio ?? null, goal: 1.0, what: 'peak RSS ÷ input size' },
    rankingPeakMemory: { ratio: rankOff?.fileRatio ?? null, goal: 1.5, what: 'peak RSS ÷ input size' },
  };
}

/** Lines of the ratio table, with the change against an earlier run's ratios when given. */
export function ratioLines(ratios, previous) {
  const lines = [];
  for (const [key, r] of Object.entries(ratios)) {
    const v = r.ratio === null ? 'n/a' : r.ratio.toFixed(3);
    const goal =
      r.goal === null
        ? ''
        : ` (goal ≤ ${r.goal}${r.ratio !== null ? (r.ratio <= r.goal ? ', met' : ', not met') : ''})`;
    const before = previous?.[key]?.ratio;
    const change = before !== undefined && before !== null && r.ratio !== null ? `; last run ${before.toFixed(3)}` : '';
    lines.push(`${key.padEnd(32)} ${v.padStart(7)}${goal}${change} — ${r.what}`);
  }
  return lines;
}
