import { readFileSync } from 'node:fs';
const n = 200000, C = 100, G = 2, B = 15, R = +(process.argv[2] || 300);
const mode = process.argv[3] || 'both';
const ST_SIZE = 18;
// layout in wasm memory
let off = 65536;
const bytes = readFileSync(new URL('./walk.wasm', import.meta.url));
const need = 65536 + n * (4 + 1 + 4 + 8 + 4 + 16) + (n + 2) * 8 + 10000 * 4 + 200 * 8 + 1 << 0;
const memory = new WebAssembly.Memory({ initial: Math.ceil((need + 1e6) / 65536) });
const alloc = (T, len) => { off = (off + 7) & ~7; const a = new T(memory.buffer, off, len); off += a.byteLength; return a; };
const code = alloc(Int32Array, n), mult = alloc(Uint8Array, n), m32 = alloc(Int32Array, 1), st = alloc(Float64Array, ST_SIZE);
const gs = alloc(Float64Array, 3 * G), binSums = alloc(Float64Array, 2 * (B + 1)), chunk = alloc(Float64Array, B);
const H = alloc(Float64Array, n + 2), unit = alloc(Float64Array, n), gridK = alloc(Float64Array, 101);
const cells = alloc(Int32Array, C * C), rankHist = alloc(Int32Array, C + 1), cWord = alloc(Int32Array, n), cTerms = alloc(Float64Array, 2 * n);
const { instance } = await WebAssembly.instantiate(bytes, { env: { memory } });
const X = instance.exports;
X.setup(code.byteOffset, mult.byteOffset, m32.byteOffset, st.byteOffset, gs.byteOffset, binSums.byteOffset, chunk.byteOffset, H.byteOffset, unit.byteOffset, gridK.byteOffset, cells.byteOffset, rankHist.byteOffset, cWord.byteOffset, cTerms.byteOffset, G, B, 1, 1);
// data
let s = 12345;
const rnd = () => { s ^= s << 13; s ^= s >>> 17; s ^= s << 5; return (s >>> 0) / 4294967296; };
for (let p = 0; p < n; p++) {
  const y = Math.floor(C * rnd() ** 2), conf = 1 - p / n * 0.9;
  const wrong = rnd() > conf ? 1 : 0; const q = wrong ? (y + 1 + Math.floor(rnd() * 98)) % C : y;
  code[p] = wrong | ((y < 69 ? 0 : 1) + 1) << 4;
  cWord[p] = (y * C + q) | (wrong ? 1 + Math.floor(rnd() * 5) : 0) << 20;
  cTerms[2 * p] = -Math.log(conf * 0.9 + 0.05); cTerms[2 * p + 1] = (1 - conf) ** 2;
  unit[p] = 1 - wrong - conf;
}
H[0] = 0; for (let k = 1; k < H.length; k++) H[k] = H[k - 1] + 1 / k;
const gridK_ = (N) => { for (let i = 1; i <= 101; i++) gridK[i - 1] = Math.floor(N * (i / 101)); };
const EMPTY_I32 = new Int32Array(0), EMPTY_F64 = new Float64Array(0);
const copy = (a) => { const b = new a.constructor(a.length); b.set(a); return b; };
const r = { rows: { nGroups: G }, gridK, chunk, bins: true, unit, B, groupSums: gs, binSums, pick: new Float64Array(2), code, harmonic: H, state: st, cls: { cells, sums: { rankHist }, word: cWord, terms: cTerms } };
const ST_W0 = 0, ST_E0 = 1, ST_AURC = 2, ST_A_BAL = 3, ST_A_WORST = 4, ST_SUM_ERR = 5, ST_WRONG_ITEMS = 6, ST_GRID_NEXT = 7, ST_ITEMS = 8, ST_N = 9, ST_W = 10, ST_CHUNK = 11, ST_CHUNK_HI = 12, ST_OP_AT_ITEMS = 14, ST_BIN = 15, ST_NLL = 16, ST_BRIER = 17;
const GRID_POINTS = 101, CODE_WRONG = 1, CODE_RARE = 14, CODE_GROUP_SHIFT = 4, CLS_CELL_BITS = 20, CLS_CELL_MASK = (1 << 20) - 1;
function chunkStart(k, base, extra) { return k * base + Math.min(k, extra); }
function spreadOverChunks(chunk, ch, chHi, d, c, u, N, base, extra) { let left = c; while (left > 0) { while (d >= chHi) { ch--; chHi = N - chunkStart(ch, base, extra); } const take = Math.min(left, chHi - d); chunk[ch] += u * take; d += take; left -= take; } return ch; }
function storeRunning(st, W0, E0, aurc, aBal, aWorst, sumErr, wrongItems, gridNext, items) { st[0] = W0; st[1] = E0; st[2] = aurc; st[3] = aBal; st[4] = aWorst; st[5] = sumErr; st[6] = wrongItems; st[7] = gridNext; st[8] = items; }
function jsWalk(r, mult, p0, q1, resume) {
  const { rows, gridK, chunk, bins, unit, B, groupSums: gs, binSums, pick } = r;
  const code = r.code;
  const G = rows.nGroups;
  const G2 = 2 * G; // gs: gW at [g], gE at [G + g], gErr at [2G + g]
  const B1 = B + 1; // binSums: mass at [bin], diff at [B + 1 + bin]
  const H = r.harmonic;
  const st = r.state;
  const N = st[ST_N];
  // adaptive-ECE chunks: the first `extra` chunks hold base + 1 items, the others base
  const base = B > 0 ? Math.floor(N / B) : 0;
  const extra = N - base * B;
  const opAtItems = st[ST_OP_AT_ITEMS];
  let E0 = st[ST_E0];
  let aurc = st[ST_AURC];
  let aBal = st[ST_A_BAL];
  let aWorst = st[ST_A_WORST];
  let sumErr = st[ST_SUM_ERR];
  const gi = st[ST_GRID_NEXT];
  let K = st[ST_ITEMS] | 0; // items entered (descending order) = mass entered
  const nextCut = N >= GRID_POINTS && gi < GRID_POINTS ? gridK[gi] : Infinity;
  // adaptive ECE: descending item d (of a singleton row) is ascending item N − 1 − d; chunk ch holds
  // descending items below chHi = N − start(ch), chunks visited from B − 1 down
  let ch = st[ST_CHUNK];
  let chHi = st[ST_CHUNK_HI];
  let chunkSum = B > 0 ? chunk[ch] : 0;
  // the current ECE bin: its mass (an integer count, exact in any order) and its diff sum
  const bin = bins !== null ? st[ST_BIN] : 0;
  let binMass = 0;
  let binDiff = bins !== null ? binSums[B1 + bin] : 0;
  // the classification sums (r.cls): zero-length stand-ins when off, so the loop reads plain arrays
  const cls = r.cls;
  const fuse = cls !== null;
  const cells = fuse ? cls.cells : EMPTY_I32;
  const rankHist = fuse ? cls.sums.rankHist : EMPTY_I32;
  const cWord = fuse ? cls.word : EMPTY_I32;
  const cTerms = fuse ? cls.terms : EMPTY_F64;
  let nll = st[ST_NLL];
  let brier = st[ST_BRIER];
  // int32 copies of the bounds: compared with them, p stays an untagged integer in V8
  const end = q1 | 0;
  const skip = resume | 0;
  let p = p0 | 0;
  for (; p < end; p++) {
    const cd = code[p];
    const c = mult[p];
    if ((cd & CODE_RARE) !== 0 && p !== skip) break;
    if (c === 0) {
      // A row not drawn (about 37% of the rows of a resample): every step below would add an
      // exact 0, except that the group-error sum is re-anchored (sumErr − e + e with e the
      // group's unchanged error, which need not round back to sumErr). Doing only that keeps the
      // values bit for bit; despite the unpredictable branch it is faster than sending the row
      // through the steps below, which would give the same values (16.6 vs 17.1 ns per row-draw
      // on the 200,000-row benchmark).
      if (G > 0) {
        const g = (cd >> CODE_GROUP_SHIFT) - 1;
        if (g >= 0 && gs[g] > 0) sumErr = sumErr - gs[G2 + g] + gs[G2 + g];
      }
      continue;
    }
    if (K + c > nextCut) break;
    if (fuse) {
      const wd = cWord[p];
      cells[wd & CLS_CELL_MASK] += c;
      rankHist[wd >>> CLS_CELL_BITS] += c;
      nll += c * cTerms[2 * p];
      brier += c * cTerms[2 * p + 1];
    }
    const wr = cd & CODE_WRONG;
    // The c copies' steps in closed form, no per-item loop and no branch on c (a random
    // multiplicity is an unpredictable branch): Σ_{j=1..c} (E + e·j)/(K + j) =
    // E·ΔH + e·(c − K·ΔH), ΔH = H[K+c] − H[K] (aurcUnitMass's identity).
    const dH = H[(K + c) | 0] - H[K];
    aurc += E0 * dH + wr * (c - K * dH);
    if (G > 0) {
      const g = (cd >> CODE_GROUP_SHIFT) - 1;
      if (g >= 0) {
        const gw = gs[g];
        const ge = gs[G + g];
        const dHg = H[(gw + c) | 0] - H[gw | 0];
        // the group's error after each copy j: e_j = (ge + wr·j)/(gw + j); Σ_j e_j in closed form
        const sumEg = ge * dHg + wr * (c - gw * dHg);
        const others = sumErr - gs[G2 + g];
        aBal += c * others + sumEg; // Σ over items of the sum of group errors (÷ G at the end)
        let mxOther = -Infinity;
        if (G === 2) mxOther = gs[G2 + 1 - g];
        else for (let k = 0; k < G; k++) if (k !== g && gs[G2 + k] > mxOther) mxOther = gs[G2 + k];
        // e_j is monotone in j: compare its ends e_1, e_c with the other groups' max (multiplied
        // out: the denominators are positive); all copies below it (lo) add c·max, all above
        // (hi) add Σ e_j, and a row whose copies cross it adds copy by copy
        const m1 = mxOther * (gw + 1);
        const mC = mxOther * (gw + c);
        const lo = +(ge + wr <= m1) & +(ge + wr * c <= mC);
        const hi = +(ge + wr >= m1) & +(ge + wr * c >= mC);
        if ((lo | hi) === 0) for (let j = 1; j <= c; j++) aWorst += Math.max(mxOther, (ge + wr * j) / (gw + j));
        else {
          pick[0] = sumEg;
          pick[1] = c * mxOther;
          aWorst += pick[lo];
        }
        const nw = gw + c;
        const ne = ge + wr * c;
        gs[g] = nw;
        gs[G + g] = ne;
        const e = ne / nw; // nw ≥ c ≥ 1
        sumErr = others + e;
        gs[G2 + g] = e;
      } else {
        let mx = -Infinity;
        for (let k = 0; k < G; k++) if (gs[G2 + k] > mx) mx = gs[G2 + k];
        aBal += c * sumErr;
        aWorst += c * mx;
      }
    }
    E0 += wr * c;
    if (bins !== null) {
      const u1 = unit[p];
      binMass += c;
      binDiff += c * u1;
      if (K + c <= chHi) chunkSum += u1 * c;
      else {
        chunk[ch] = chunkSum;
        ch = spreadOverChunks(chunk, ch, chHi, K, c, u1, N, base, extra);
        chHi = N - chunkStart(ch, base, extra);
        chunkSum = chunk[ch];
      }
    }
    K = (K + c) | 0;
    if (K >= opAtItems) {
      p++;
      break;
    }
  }
  storeRunning(st, K, E0, aurc, aBal, aWorst, sumErr, E0, gi, K);
  st[ST_NLL] = nll;
  st[ST_BRIER] = brier;
  if (B > 0) chunk[ch] = chunkSum;
  if (bins !== null) {
    binSums[bin] += binMass;
    binSums[B1 + bin] = binDiff;
  }
  st[ST_CHUNK] = ch;
  st[ST_CHUNK_HI] = chHi;
  return p;
}
function reset(N) {
  st.fill(0); st[ST_SUM_ERR] = G; st[ST_N] = N; st[ST_W] = N; const base = Math.floor(N / B), extra = N - base * B;
  st[ST_CHUNK] = B - 1; st[ST_CHUNK_HI] = N - chunkStart(B - 1, base, extra); st[ST_OP_AT_ITEMS] = Infinity; st[ST_BIN] = 3;
  gs.fill(0); gs.fill(1, 2 * G); binSums.fill(0); chunk.fill(0); cells.fill(0); rankHist.fill(0); gridK_(N); st[ST_GRID_NEXT] = 101;
}
function draw(b) { mult.fill(0); s = 777 + b * 7919; for (let i = 0; i < n; i++) mult[Math.floor(rnd() * n)]++; }
const out = { js: [], wasm: [], jsplain: [], nb: [], sp: [] };
const plain = { ...r, gridK: copy(gridK), chunk: copy(chunk), unit: copy(unit), groupSums: copy(gs), binSums: copy(binSums), code: copy(code), harmonic: copy(H), state: copy(st), cls: { cells: copy(cells), sums: { rankHist: copy(rankHist) }, word: copy(cWord), terms: copy(cTerms) } };
const pmult = copy(mult);
function run(which, R) {
  let t = 0;
  for (let b = 0; b < R; b++) {
    draw(b); reset(n);
    const t0 = process.hrtime.bigint();
    let p = 0;
    if (which === 'jsplain') {
      pmult.set(mult); plain.state.set(st); plain.groupSums.set(gs); plain.binSums.set(binSums); plain.chunk.set(chunk); plain.cls.cells.fill(0); plain.cls.sums.rankHist.fill(0); plain.gridK.set(gridK);
      const t1 = process.hrtime.bigint();
      while (p < n) p = jsWalk(plain, pmult, p, Math.min(n, p + 4096), -1);
      t -= Number(t1 - t0);
    } else if (which === 'js') while (p < n) p = jsWalk(r, mult, p, Math.min(n, p + 4096), -1);
    else if (which === 'sp') while (p < n) p = X.walksp8(p, Math.min(n, p + 4096), -1);
    else if (which === 'nb') while (p < n) p = X.walknb8(p, Math.min(n, p + 4096), -1);
    else while (p < n) p = X.walk8(p, Math.min(n, p + 4096), -1);
    t += Number(process.hrtime.bigint() - t0);
    if (b >= R - 3) out[which].push([...(which === 'jsplain' ? plain.state : st)].join(',') + '|' + [...chunk].join(',') + '|' + cells.reduce((a, x, i) => a + x * i, 0));
  }
  return t / R / n;
}
for (let round = 0; round < 3; round++) {
  if (mode === 'plain' || mode === 'both') console.log('jsplain ns/row', run('jsplain', R).toFixed(2));
  if (mode === 'js' || mode === 'both') console.log('js   ns/row', run('js', R).toFixed(2));
  if (mode !== 'js') console.log('wasm ns/row', run('wasm', R).toFixed(2));
  if (mode === 'nb') console.log('nb ns/row', run('nb', R).toFixed(2));
  if (mode === 'sp') console.log('sp ns/row', run('sp', R).toFixed(2));
}
console.log('identical:', (out.nb.join() || out.sp.join()) === out.wasm.join(), out.nb[0]?.slice(0,200), out.wasm[0]?.slice(0,200));
