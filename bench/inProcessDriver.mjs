// `node --expose-gc bench/inProcessDriver.mjs <rounds> <out.json> <baseBundle> <baseRoot> <headBundle> <headRoot>`
// Loads both sides' bundles of bench/inProcessStages.ts into this one process and times every stage
// `rounds` times on each side, the two sides one right after the other for each stage (which side
// goes first alternates), with a full collection before each call. Writes
// { times: { stage label: [base seconds by round, head seconds by round] }, loads } to out.json; run by
// bench/compare.mjs --in-process, which judges the paired ratios.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';

const [rounds, outFile, ...sideArgs] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const gc = globalThis.gc;
if (typeof gc !== 'function') throw new Error('run with --expose-gc (a collection before each timed call)');

const sides = [];
for (let i = 0; i < sideArgs.length; i += 2) sides.push(await require(sideArgs[i]).stages(sideArgs[i + 1]));
const names = sides[0].map((s) => s.name);
if (sides.some((st) => st.map((s) => s.name).join('\n') !== names.join('\n')))
  throw new Error('the two sides list different stages: both must be bundled from the same bench/inProcessStages.ts');

/** label → [base times, head times], indexed by round */
const times = {};
const record = (side, r, name, result) => {
  const entries =
    typeof result === 'number' ? [[name, result]] : Object.entries(result).map(([k, v]) => [`${name}: ${k}`, v]);
  for (const [label, t] of entries) {
    times[label] ??= [[], []];
    times[label][side][r] = t;
  }
};
const loads = [];
for (let r = 0; r < Number(rounds); r++) {
  loads.push(loadavg()[0]);
  console.log(`== in-process round ${r + 1}/${rounds} (load average ${loads[r].toFixed(2)})`);
  for (let k = 0; k < names.length; k++) {
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
