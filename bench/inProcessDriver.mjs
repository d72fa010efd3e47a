// `node --expose-gc bench/inProcessDriver.mjs <rounds> <out.json> <filters JSON> <baseBundle> <baseRoot> <headBundle> <headRoot>`
// Loads both sides' bundles of bench/inProcessStages.ts into this one process and times every stage
// `rounds` times on each side, the two sides one right after the other for each stage (which side
// goes first alternates), with a full collection before each call. With filters (a JSON array of
// label substrings, [] for all), only the stages that print a matching label are timed: a stage
// whose name does not match is called once on each side before the rounds to learn its labels (an
// evaluation prints one per step, `name: step`), and dropped when none matches. Writes
// { times: { stage label: [base seconds by round, head seconds by round] }, loads } to out.json; run by
// bench/compare.mjs --in-process, which judges the paired ratios.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';

const [rounds, outFile, filterJson, ...sideArgs] = process.argv.slice(2);
const filters = JSON.parse(filterJson);
const wanted = (label) => filters.length === 0 || filters.some((x) => label.includes(x));
const require = createRequire(import.meta.url);
const gc = globalThis.gc;
if (typeof gc !== 'function') throw new Error('run with --expose-gc (a collection before each timed call)');

const sides = [];
for (let i = 0; i < sideArgs.length; i += 2) sides.push(await require(sideArgs[i]).stages(sideArgs[i + 1]));
const names = sides[0].map((s) => s.name);
if (sides.some((st) => st.map((s) => s.name).join('\n') !== names.join('\n')))
  throw new Error('the two sides list different stages: both must be bundled from the same bench/inProcessStages.ts');

/** The stage's labels as record() names them. */
const labels = (name, result) =>
  typeof result === 'number' ? [name] : Object.keys(result).map((k) => `${name}: ${k}`);
const timed = [];
for (let k = 0; k < names.length; k++) {
  let keep = wanted(names[k]);
  for (const st of keep ? [] : sides) {
    gc();
    if (labels(names[k], await st[k].run()).some(wanted)) keep = true;
  }
  if (keep) timed.push(k);
}
if (timed.length === 0) throw new Error(`no stage prints a label containing ${filters.join(' or ')}`);

/** label → [base times, head times], indexed by round */
const times = {};
const record = (side, r, name, result) => {
  const values = typeof result === 'number' ? [result] : Object.values(result);
  labels(name, result).forEach((label, j) => {
    times[label] ??= [[], []];
    times[label][side][r] = values[j];
  });
};
const loads = [];
for (let r = 0; r < Number(rounds); r++) {
  loads.push(loadavg()[0]);
  console.log(`== in-process round ${r + 1}/${rounds} (load average ${loads[r].toFixed(2)})`);
  for (const k of timed) {
    const order = (r + k) % 2 === 0 ? [0, 1] : [1, 0];
    for (const side of order) {
      gc();
      record(side, r, names[k], await sides[side][k].run());
    }
  }
}
writeFileSync(outFile, JSON.stringify({ times, loads }));
// the bootstrap and reading threads of the evaluations are gone; nothing else keeps the process
process.exit(0);
