/*
 * The unit-mass walk of the selective, calibration and classification sums of one bootstrap resample
 * (metrics/selectiveResample.ts, `unitMassPass`): the per-row loop, compiled to WebAssembly by
 * scripts/build-wasm.mjs (clang, --target=wasm32) into unitMassWalkWasm.ts, which the TypeScript
 * loads (unitMassWalkKernel.ts).
 *
 * Why WebAssembly: this loop is the bootstrap's hot path (about three quarters of a resample's time)
 * and its cost is the number of instructions per row, not memory or branches. Compiled ahead of time
 * it runs without V8's bounds check on every typed-array access and with clang's register
 * allocation: on the 200,000-row benchmark about 15.5 ns per row and resample against 17–19 ns for
 * the same steps in TypeScript (docs/benchmarks.md, "The bootstrap").
 *
 * Exactness: the steps are those of the TypeScript they replace, in the same order, in IEEE 754
 * double precision, so the values are the same bit for bit. WebAssembly has no fused multiply-add
 * in its base instruction set and clang is told not to contract (-ffp-contract=off); f64.max
 * (__builtin_wasm_max_f64) has Math.max's semantics (NaN if either is NaN, +0 above -0); and the
 * re-anchoring `sumErr - e + e` is not simplified (clang keeps IEEE semantics unless told
 * otherwise). The unit tests compare the walk with the plain metric definitions on random inputs.
 *
 * Layout: the per-row arrays, the multiplicities and the running state live in the module's imported
 * memory, at byte offsets given once to `setup`; the state slots and the bits of the per-row words
 * are those of metrics/selectiveResample.ts (ST_*, CODE_*, CLS_*): change both together.
 */
#include <stdint.h>

/* state slots (metrics/selectiveResample.ts ST_*) */
#define ST_W0 0
#define ST_E0 1
#define ST_AURC 2
#define ST_A_BAL 3
#define ST_A_WORST 4
#define ST_SUM_ERR 5
#define ST_WRONG_ITEMS 6
#define ST_GRID_NEXT 7
#define ST_ITEMS 8
#define ST_N 9
#define ST_CHUNK 11
#define ST_CHUNK_HI 12
#define ST_OP_AT_ITEMS 14
#define ST_BIN 15
#define ST_NLL 16
#define ST_BRIER 17

#define GRID_POINTS 101
/* per-position word (metrics/selectiveResample.ts CODE_*) */
#define CODE_WRONG 1
#define CODE_RARE (2 | 4 | 8)
#define CODE_GROUP_SHIFT 4
/* classification word (metrics/selectiveResample.ts CLS_*) */
#define CLS_CELL_BITS 20
#define CLS_CELL_MASK ((1 << CLS_CELL_BITS) - 1)

static const int32_t *code;
static const uint8_t *mult8;
static const int32_t *mult32;
static double *st;
static double *gs;
static double *binSums;
static double *chunk;
static const double *H;
static const double *unit;
static const double *gridK;
static int32_t *cells;
static int32_t *rankHist;
static const int32_t *cWord;
static const double *cTerms;
static int G;
static int B;
static int fuse;
static int hasBins;

/* Byte offsets of the arrays in memory, and the sizes the walk branches on (fixed per resampler). */
__attribute__((export_name("setup"))) void setup(int32_t *code_, uint8_t *mult8_, int32_t *mult32_, double *st_,
                                                 double *gs_, double *binSums_, double *chunk_, double *H_,
                                                 double *unit_, double *gridK_, int32_t *cells_, int32_t *rankHist_,
                                                 int32_t *cWord_, double *cTerms_, int G_, int B_, int fuse_,
                                                 int hasBins_) {
  code = code_;
  mult8 = mult8_;
  mult32 = mult32_;
  st = st_;
  gs = gs_;
  binSums = binSums_;
  chunk = chunk_;
  H = H_;
  unit = unit_;
  gridK = gridK_;
  cells = cells_;
  rankHist = rankHist_;
  cWord = cWord_;
  cTerms = cTerms_;
  G = G_;
  B = B_;
  fuse = fuse_;
  hasBins = hasBins_;
}

static inline int imin(int a, int b) { return a < b ? a : b; }

/* First ascending item of adaptive chunk k (metrics/selectiveResample.ts chunkStart). */
static inline int chunkStart(int k, int base, int extra) { return k * base + imin(k, extra); }

/* metrics/selectiveResample.ts spreadOverChunks: a row's copies that cross an adaptive-ECE chunk boundary. */
static int spreadOverChunks(int ch, double chHi, int d, int c, double u, int N, int base, int extra) {
  int left = c;
  while (left > 0) {
    while (d >= chHi) {
      ch--;
      chHi = N - chunkStart(ch, base, extra);
    }
    const int take = imin(left, (int)(chHi - d));
    chunk[ch] += u * take;
    d += take;
    left -= take;
  }
  return ch;
}

/*
 * metrics/selectiveResample.ts unitMassPass's per-row loop over positions [p0, q1): walks the plain rows and
 * stops before an event row for the caller (a flagged row other than `skip`, or a row whose copies
 * reach the next grid point) or after the row that reaches the operating point's item count; returns
 * where it stopped. With unit masses the entered mass is the item count K and the wrong mass the
 * wrong-item count, so one variable holds each pair. These are the steps of metrics/selectiveResample.ts
 * `weightedSlice` for one row with its c copies in closed form: the values are the same bit for bit.
 * `bytes` is a constant at each call, so clang compiles one loop per multiplicity type.
 */
static inline __attribute__((always_inline)) int walk(int p0, int q1, int skip, int bytes) {
  const int G2 = 2 * G; /* gs: gW at [g], gE at [G + g], gErr at [2G + g] */
  const int B1 = B + 1; /* binSums: mass at [bin], diff at [B + 1 + bin] */
  const int N = (int)st[ST_N];
  /* adaptive-ECE chunks: the first `extra` chunks hold base + 1 items, the others base */
  const int base = B > 0 ? N / B : 0;
  const int extra = N - base * B;
  const double opAtItems = st[ST_OP_AT_ITEMS];
  double E0 = st[ST_E0];
  double aurc = st[ST_AURC];
  double aBal = st[ST_A_BAL];
  double aWorst = st[ST_A_WORST];
  double sumErr = st[ST_SUM_ERR];
  const double gi = st[ST_GRID_NEXT];
  int K = (int)st[ST_ITEMS]; /* items entered (descending order) = mass entered */
  const double nextCut = N >= GRID_POINTS && gi < GRID_POINTS ? gridK[(int)gi] : __builtin_inf();
  /* adaptive ECE: descending item d (of a singleton row) is ascending item N − 1 − d; chunk ch holds
     descending items below chHi = N − start(ch), chunks visited from B − 1 down */
  int ch = (int)st[ST_CHUNK];
  double chHi = st[ST_CHUNK_HI];
  double chunkSum = B > 0 ? chunk[ch] : 0;
  /* the current ECE bin: its mass (an integer count, exact in any order) and its diff sum */
  const int bin = hasBins ? (int)st[ST_BIN] : 0;
  double binMass = 0;
  double binDiff = hasBins ? binSums[B1 + bin] : 0;
  double nll = st[ST_NLL];
  double brier = st[ST_BRIER];
  int p = p0;
  for (; p < q1; p++) {
    const int cd = code[p];
    const int c = bytes ? mult8[p] : mult32[p];
    if ((cd & CODE_RARE) != 0 && p != skip) break;
    if (c == 0) {
      /* A row not drawn (about 37% of the rows of a resample): every step below would add an exact
         0, except that the group-error sum is re-anchored (sumErr − e + e with e the group's
         unchanged error, which need not round back to sumErr). Doing only that keeps the values
         bit for bit. */
      if (G > 0) {
        const int g = (cd >> CODE_GROUP_SHIFT) - 1;
        if (g >= 0 && gs[g] > 0) sumErr = sumErr - gs[G2 + g] + gs[G2 + g];
      }
      continue;
    }
    if (K + c > nextCut) break;
    if (fuse) {
      const int wd = cWord[p];
      cells[wd & CLS_CELL_MASK] += c;
      rankHist[(uint32_t)wd >> CLS_CELL_BITS] += c;
      nll += c * cTerms[2 * p];
      brier += c * cTerms[2 * p + 1];
    }
    const int wr = cd & CODE_WRONG;
    /* The c copies' steps in closed form, no per-item loop and no branch on c (a random
       multiplicity is an unpredictable branch): Σ_{j=1..c} (E + e·j)/(K + j) =
       E·ΔH + e·(c − K·ΔH), ΔH = H[K+c] − H[K] (riskCoverage.ts aurcUnitMass's identity). */
    const double dH = H[K + c] - H[K];
    aurc += E0 * dH + wr * (c - K * dH);
    if (G > 0) {
      const int g = (cd >> CODE_GROUP_SHIFT) - 1;
      if (g >= 0) {
        const double gw = gs[g];
        const double ge = gs[G + g];
        const double dHg = H[(int)(gw + c)] - H[(int)gw];
        /* the group's error after each copy j: e_j = (ge + wr·j)/(gw + j); Σ_j e_j in closed form */
        const double sumEg = ge * dHg + wr * (c - gw * dHg);
        const double others = sumErr - gs[G2 + g];
        aBal += c * others + sumEg; /* Σ over items of the sum of group errors (÷ G at the end) */
        double mxOther = -__builtin_inf();
        if (G == 2)
          mxOther = gs[G2 + 1 - g];
        else
          for (int k = 0; k < G; k++)
            if (k != g && gs[G2 + k] > mxOther) mxOther = gs[G2 + k];
        /* e_j is monotone in j: compare its ends e_1, e_c with the other groups' max (multiplied
           out: the denominators are positive); all copies below it (lo) add c·max, all above (hi)
           add Σ e_j, and a row whose copies cross it adds copy by copy (f64.max: Math.max) */
        const double m1 = mxOther * (gw + 1);
        const double mC = mxOther * (gw + c);
        const int lo = (ge + wr <= m1) & (ge + wr * c <= mC);
        const int hi = (ge + wr >= m1) & (ge + wr * c >= mC);
        if ((lo | hi) == 0) {
          for (int j = 1; j <= c; j++) aWorst += __builtin_wasm_max_f64(mxOther, (ge + wr * j) / (gw + j));
        } else
          aWorst += lo ? c * mxOther : sumEg;
        const double nw = gw + c;
        const double ne = ge + wr * c;
        gs[g] = nw;
        gs[G + g] = ne;
        const double e = ne / nw; /* nw ≥ c ≥ 1 */
        sumErr = others + e;
        gs[G2 + g] = e;
      } else {
        double mx = -__builtin_inf();
        for (int k = 0; k < G; k++)
          if (gs[G2 + k] > mx) mx = gs[G2 + k];
        aBal += c * sumErr;
        aWorst += c * mx;
      }
    }
    E0 += wr * c;
    if (hasBins) {
      const double u1 = unit[p];
      binMass += c;
      binDiff += c * u1;
      if (K + c <= chHi)
        chunkSum += u1 * c;
      else {
        chunk[ch] = chunkSum;
        ch = spreadOverChunks(ch, chHi, K, c, u1, N, base, extra);
        chHi = N - chunkStart(ch, base, extra);
        chunkSum = chunk[ch];
      }
    }
    K = K + c;
    if (K >= opAtItems) {
      p++;
      break;
    }
  }
  /* metrics/selectiveResample.ts storeRunning's slots */
  st[ST_W0] = K;
  st[ST_E0] = E0;
  st[ST_AURC] = aurc;
  st[ST_A_BAL] = aBal;
  st[ST_A_WORST] = aWorst;
  st[ST_SUM_ERR] = sumErr;
  st[ST_WRONG_ITEMS] = E0;
  st[ST_GRID_NEXT] = gi;
  st[ST_ITEMS] = K;
  st[ST_NLL] = nll;
  st[ST_BRIER] = brier;
  if (B > 0) chunk[ch] = chunkSum;
  if (hasBins) {
    binSums[bin] += binMass;
    binSums[B1 + bin] = binDiff;
  }
  st[ST_CHUNK] = ch;
  st[ST_CHUNK_HI] = chHi;
  return p;
}

/* Byte multiplicities (the classification bootstrap's common case). */
__attribute__((export_name("walkBytes"))) int walkBytes(int p0, int q1, int skip) { return walk(p0, q1, skip, 1); }

/* 32-bit multiplicities (every other unit-mass bootstrap, and the exact fallback of a count above 255). */
__attribute__((export_name("walkInt32"))) int walkInt32(int p0, int q1, int skip) { return walk(p0, q1, skip, 0); }
