import { sortRowsByScore } from '../src/core/metrics/sortedRows';
import { aurcValues } from '../src/core/metrics/riskCoverage';
import { createRng } from '../src/core/stats/rng';
const n = 200000; const rng = createRng(1);
const s = new Float64Array(n), w = new Uint8Array(n), g = new Int32Array(n);
for (let i=0;i<n;i++){ s[i]=rng.next(); w[i]= rng.next()>s[i]?1:0; g[i]=rng.next()<0.7?0:1; }
const rows = sortRowsByScore(s, w, {groups:g, nGroups:2});
const counts = new Float64Array(n); for (let i=0;i<n;i++) counts[rng.int(n)]++;
const mult = Float64Array.from(rows.rowIndex, (i)=>counts[i]);
for (let k=0;k<30;k++) aurcValues(rows, mult);
const c0=process.cpuUsage(); for (let k=0;k<30;k++) aurcValues(rows, mult); const c=process.cpuUsage(c0); console.log('cpu ms', (c.user+c.system)/1000/30);
