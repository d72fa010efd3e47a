#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#define __builtin_wasm_max_f64(a,b) ((a) != (a) || (b) != (b) ? NAN : ((a) > (b) ? (a) : (b)))
#define export_name(x) used
#include <stdint.h>
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
#define ST_W 10
#define ST_CHUNK 11
#define ST_CHUNK_HI 12
#define ST_OP_AT_ITEMS 14
#define ST_BIN 15
#define ST_NLL 16
#define ST_BRIER 17
#define GRID_POINTS 101
#define CODE_WRONG 1
#define CODE_RARE 14
#define CODE_GROUP_SHIFT 4
#define CLS_CELL_BITS 20
#define CLS_CELL_MASK ((1 << CLS_CELL_BITS) - 1)

static const int32_t *code; static const uint8_t *mult8; static const int32_t *mult32;
static double *st; static double *gs; static double *binSums; static double *chunk;
static const double *H; static const double *unit; static const double *gridK;
static int32_t *cells; static int32_t *rankHist; static const int32_t *cWord; static const double *cTerms;
static int G, B, fuse, hasBins;

__attribute__((export_name("setup")))
void setup(int32_t *code_, uint8_t *m8, int32_t *m32, double *st_, double *gs_, double *binSums_, double *chunk_,
           double *H_, double *unit_, double *gridK_, int32_t *cells_, int32_t *rankHist_, int32_t *cWord_, double *cTerms_,
           int G_, int B_, int fuse_, int hasBins_) {
  code = code_; mult8 = m8; mult32 = m32; st = st_; gs = gs_; binSums = binSums_; chunk = chunk_; H = H_; unit = unit_;
  gridK = gridK_; cells = cells_; rankHist = rankHist_; cWord = cWord_; cTerms = cTerms_; G = G_; B = B_; fuse = fuse_; hasBins = hasBins_;
}

static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int chunkStart(int k, int base, int extra) { return k * base + imin(k, extra); }

static int spreadOverChunks(double *chunk, int ch, double chHi, int d, int c, double u, int N, int base, int extra) {
  int left = c;
  while (left > 0) {
    while (d >= chHi) { ch--; chHi = N - chunkStart(ch, base, extra); }
    int take = imin(left, (int)(chHi - d));
    chunk[ch] += u * take;
    d += take;
    left -= take;
  }
  return ch;
}

#define WALK(NAME, MULT) \
__attribute__((export_name(#NAME))) \
int NAME##_fn(int p0, int q1, int skip) { \
  const int G2 = 2 * G; const int B1 = B + 1; \
  const int N = (int)st[ST_N]; \
  const int base = B > 0 ? N / B : 0; const int extra = N - base * B; \
  const double opAtItems = st[ST_OP_AT_ITEMS]; \
  double E0 = st[ST_E0], aurc = st[ST_AURC], aBal = st[ST_A_BAL], aWorst = st[ST_A_WORST], sumErr = st[ST_SUM_ERR]; \
  const double gi = st[ST_GRID_NEXT]; \
  int K = (int)st[ST_ITEMS]; \
  const double nextCut = N >= GRID_POINTS && gi < GRID_POINTS ? gridK[(int)gi] : __builtin_inf(); \
  int ch = (int)st[ST_CHUNK]; double chHi = st[ST_CHUNK_HI]; \
  double chunkSum = B > 0 ? chunk[ch] : 0; \
  const int bin = hasBins ? (int)st[ST_BIN] : 0; \
  double binMass = 0; double binDiff = hasBins ? binSums[B1 + bin] : 0; \
  double nll = st[ST_NLL], brier = st[ST_BRIER]; \
  int p = p0; \
  for (; p < q1; p++) { \
    const int cd = code[p]; const int c = MULT[p]; \
    if ((cd & CODE_RARE) != 0 && p != skip) break; \
    if (c == 0) { \
      if (G > 0) { const int g = (cd >> CODE_GROUP_SHIFT) - 1; \
        if (g >= 0 && gs[g] > 0) sumErr = sumErr - gs[G2 + g] + gs[G2 + g]; } \
      continue; \
    } \
    if ((double)(K + c) > nextCut) break; \
    if (fuse) { const int wd = cWord[p]; cells[wd & CLS_CELL_MASK] += c; rankHist[(uint32_t)wd >> CLS_CELL_BITS] += c; \
      nll += c * cTerms[2 * p]; brier += c * cTerms[2 * p + 1]; } \
    const int wr = cd & CODE_WRONG; \
    const double dH = H[K + c] - H[K]; \
    aurc += E0 * dH + wr * (c - K * dH); \
    if (G > 0) { \
      const int g = (cd >> CODE_GROUP_SHIFT) - 1; \
      if (g >= 0) { \
        const double gw = gs[g]; const double ge = gs[G + g]; \
        const double dHg = H[(int)(gw + c)] - H[(int)gw]; \
        const double sumEg = ge * dHg + wr * (c - gw * dHg); \
        const double others = sumErr - gs[G2 + g]; \
        aBal += c * others + sumEg; \
        double mxOther = -__builtin_inf(); \
        if (G == 2) mxOther = gs[G2 + 1 - g]; \
        else for (int k = 0; k < G; k++) if (k != g && gs[G2 + k] > mxOther) mxOther = gs[G2 + k]; \
        const double m1 = mxOther * (gw + 1); const double mC = mxOther * (gw + c); \
        const int lo = (ge + wr <= m1) & (ge + wr * c <= mC); \
        const int hi = (ge + wr >= m1) & (ge + wr * c >= mC); \
        if ((lo | hi) == 0) { for (int j = 1; j <= c; j++) aWorst += __builtin_wasm_max_f64(mxOther, (ge + wr * j) / (gw + j)); } \
        else aWorst += lo ? c * mxOther : sumEg; \
        const double nw = gw + c; const double ne = ge + wr * c; \
        gs[g] = nw; gs[G + g] = ne; \
        const double e = ne / nw; sumErr = others + e; gs[G2 + g] = e; \
      } else { \
        double mx = -__builtin_inf(); \
        for (int k = 0; k < G; k++) if (gs[G2 + k] > mx) mx = gs[G2 + k]; \
        aBal += c * sumErr; aWorst += c * mx; \
      } \
    } \
    E0 += wr * c; \
    if (hasBins) { \
      const double u1 = unit[p]; binMass += c; binDiff += c * u1; \
      if (K + c <= chHi) chunkSum += u1 * c; \
      else { chunk[ch] = chunkSum; ch = spreadOverChunks(chunk, ch, chHi, K, c, u1, N, base, extra); \
        chHi = N - chunkStart(ch, base, extra); chunkSum = chunk[ch]; } \
    } \
    K = K + c; \
    if (K >= opAtItems) { p++; break; } \
  } \
  st[ST_W0] = K; st[ST_E0] = E0; st[ST_AURC] = aurc; st[ST_A_BAL] = aBal; st[ST_A_WORST] = aWorst; \
  st[ST_SUM_ERR] = sumErr; st[ST_WRONG_ITEMS] = E0; st[ST_GRID_NEXT] = gi; st[ST_ITEMS] = K; \
  st[ST_NLL] = nll; st[ST_BRIER] = brier; \
  if (B > 0) chunk[ch] = chunkSum; \
  if (hasBins) { binSums[bin] += binMass; binSums[B1 + bin] = binDiff; } \
  st[ST_CHUNK] = ch; st[ST_CHUNK_HI] = chHi; \
  return p; \
}

#define WALKNB(NAME, MULT) \
__attribute__((export_name(#NAME))) \
int NAME##_fn(int p0, int q1, int skip) { \
  const int G2 = 2 * G; const int B1 = B + 1; \
  const int N = (int)st[ST_N]; \
  const int base = B > 0 ? N / B : 0; const int extra = N - base * B; \
  const double opAtItems = st[ST_OP_AT_ITEMS]; \
  double E0 = st[ST_E0], aurc = st[ST_AURC], aBal = st[ST_A_BAL], aWorst = st[ST_A_WORST], sumErr = st[ST_SUM_ERR]; \
  const double gi = st[ST_GRID_NEXT]; \
  int K = (int)st[ST_ITEMS]; \
  const double nextCut = N >= GRID_POINTS && gi < GRID_POINTS ? gridK[(int)gi] : __builtin_inf(); \
  int ch = (int)st[ST_CHUNK]; double chHi = st[ST_CHUNK_HI]; \
  double chunkSum = B > 0 ? chunk[ch] : 0; \
  const int bin = hasBins ? (int)st[ST_BIN] : 0; \
  double binMass = 0; double binDiff = hasBins ? binSums[B1 + bin] : 0; \
  double nll = st[ST_NLL], brier = st[ST_BRIER]; \
  int p = p0; \
  for (; p < q1; p++) { \
    const int cd = code[p]; const int c = MULT[p]; \
    if ((cd & CODE_RARE) != 0 && p != skip) break; \
    if ((double)(K + c) > nextCut) break; \
    if (fuse) { const int wd = cWord[p]; cells[wd & CLS_CELL_MASK] += c; rankHist[(uint32_t)wd >> CLS_CELL_BITS] += c; \
      nll += c * cTerms[2 * p]; brier += c * cTerms[2 * p + 1]; } \
    const int wr = cd & CODE_WRONG; \
    const double dH = H[K + c] - H[K]; \
    aurc += E0 * dH + wr * (c - K * dH); \
    if (G > 0) { \
      const int g = (cd >> CODE_GROUP_SHIFT) - 1; \
      if (g >= 0) { \
        const double gw = gs[g]; const double ge = gs[G + g]; \
        const double dHg = H[(int)(gw + c)] - H[(int)gw]; \
        const double sumEg = ge * dHg + wr * (c - gw * dHg); \
        const double others = sumErr - gs[G2 + g]; \
        aBal += c * others + sumEg; \
        double mxOther = -__builtin_inf(); \
        if (G == 2) mxOther = gs[G2 + 1 - g]; \
        else for (int k = 0; k < G; k++) if (k != g && gs[G2 + k] > mxOther) mxOther = gs[G2 + k]; \
        const double m1 = mxOther * (gw + 1); const double mC = mxOther * (gw + c); \
        const int lo = (ge + wr <= m1) & (ge + wr * c <= mC); \
        const int hi = (ge + wr >= m1) & (ge + wr * c >= mC); \
        if ((lo | hi) == 0) { for (int j = 1; j <= c; j++) aWorst += __builtin_wasm_max_f64(mxOther, (ge + wr * j) / (gw + j)); } \
        else aWorst += lo ? c * mxOther : sumEg; \
        const double nw = gw + c; const double ne = ge + wr * c; \
        gs[g] = nw; gs[G + g] = ne; \
        const double e = nw > 0 ? ne / nw : gs[G2 + g]; sumErr = others + e; gs[G2 + g] = e; \
      } else { \
        double mx = -__builtin_inf(); \
        for (int k = 0; k < G; k++) if (gs[G2 + k] > mx) mx = gs[G2 + k]; \
        aBal += c * sumErr; aWorst += c * mx; \
      } \
    } \
    E0 += wr * c; \
    if (hasBins) { \
      const double u1 = unit[p]; binMass += c; binDiff += c * u1; \
      if (K + c <= chHi) chunkSum += u1 * c; \
      else { chunk[ch] = chunkSum; ch = spreadOverChunks(chunk, ch, chHi, K, c, u1, N, base, extra); \
        chHi = N - chunkStart(ch, base, extra); chunkSum = chunk[ch]; } \
    } \
    K = K + c; \
    if (K >= opAtItems) { p++; break; } \
  } \
  st[ST_W0] = K; st[ST_E0] = E0; st[ST_AURC] = aurc; st[ST_A_BAL] = aBal; st[ST_A_WORST] = aWorst; \
  st[ST_SUM_ERR] = sumErr; st[ST_WRONG_ITEMS] = E0; st[ST_GRID_NEXT] = gi; st[ST_ITEMS] = K; \
  st[ST_NLL] = nll; st[ST_BRIER] = brier; \
  if (B > 0) chunk[ch] = chunkSum; \
  if (hasBins) { binSums[bin] += binMass; binSums[B1 + bin] = binDiff; } \
  st[ST_CHUNK] = ch; st[ST_CHUNK_HI] = chHi; \
  return p; \
}

WALKNB(walknb8, mult8)
#define WALKSP(NAME, MULT) \
__attribute__((export_name(#NAME))) \
int NAME##_fn(int p0, int q1, int skip) { \
  const int G = 2; const int fuse = 1; const int hasBins = 1; const int G2 = 2 * G; const int B1 = B + 1; \
  const int N = (int)st[ST_N]; \
  const int base = B > 0 ? N / B : 0; const int extra = N - base * B; \
  const double opAtItems = st[ST_OP_AT_ITEMS]; \
  double E0 = st[ST_E0], aurc = st[ST_AURC], aBal = st[ST_A_BAL], aWorst = st[ST_A_WORST], sumErr = st[ST_SUM_ERR]; \
  const double gi = st[ST_GRID_NEXT]; \
  int K = (int)st[ST_ITEMS]; \
  const double nextCut = N >= GRID_POINTS && gi < GRID_POINTS ? gridK[(int)gi] : __builtin_inf(); \
  int ch = (int)st[ST_CHUNK]; double chHi = st[ST_CHUNK_HI]; \
  double chunkSum = B > 0 ? chunk[ch] : 0; \
  const int bin = hasBins ? (int)st[ST_BIN] : 0; \
  double binMass = 0; double binDiff = hasBins ? binSums[B1 + bin] : 0; \
  double nll = st[ST_NLL], brier = st[ST_BRIER]; \
  int p = p0; \
  for (; p < q1; p++) { \
    const int cd = code[p]; const int c = MULT[p]; \
    if ((cd & CODE_RARE) != 0 && p != skip) break; \
    if (c == 0) { \
      if (G > 0) { const int g = (cd >> CODE_GROUP_SHIFT) - 1; \
        if (g >= 0 && gs[g] > 0) sumErr = sumErr - gs[G2 + g] + gs[G2 + g]; } \
      continue; \
    } \
    if ((double)(K + c) > nextCut) break; \
    if (fuse) { const int wd = cWord[p]; cells[wd & CLS_CELL_MASK] += c; rankHist[(uint32_t)wd >> CLS_CELL_BITS] += c; \
      nll += c * cTerms[2 * p]; brier += c * cTerms[2 * p + 1]; } \
    const int wr = cd & CODE_WRONG; \
    const double dH = H[K + c] - H[K]; \
    aurc += E0 * dH + wr * (c - K * dH); \
    if (G > 0) { \
      const int g = (cd >> CODE_GROUP_SHIFT) - 1; \
      if (g >= 0) { \
        const double gw = gs[g]; const double ge = gs[G + g]; \
        const double dHg = H[(int)(gw + c)] - H[(int)gw]; \
        const double sumEg = ge * dHg + wr * (c - gw * dHg); \
        const double others = sumErr - gs[G2 + g]; \
        aBal += c * others + sumEg; \
        double mxOther = -__builtin_inf(); \
        if (G == 2) mxOther = gs[G2 + 1 - g]; \
        else for (int k = 0; k < G; k++) if (k != g && gs[G2 + k] > mxOther) mxOther = gs[G2 + k]; \
        const double m1 = mxOther * (gw + 1); const double mC = mxOther * (gw + c); \
        const int lo = (ge + wr <= m1) & (ge + wr * c <= mC); \
        const int hi = (ge + wr >= m1) & (ge + wr * c >= mC); \
        if ((lo | hi) == 0) { for (int j = 1; j <= c; j++) aWorst += __builtin_wasm_max_f64(mxOther, (ge + wr * j) / (gw + j)); } \
        else aWorst += lo ? c * mxOther : sumEg; \
        const double nw = gw + c; const double ne = ge + wr * c; \
        gs[g] = nw; gs[G + g] = ne; \
        const double e = ne / nw; sumErr = others + e; gs[G2 + g] = e; \
      } else { \
        double mx = -__builtin_inf(); \
        for (int k = 0; k < G; k++) if (gs[G2 + k] > mx) mx = gs[G2 + k]; \
        aBal += c * sumErr; aWorst += c * mx; \
      } \
    } \
    E0 += wr * c; \
    if (hasBins) { \
      const double u1 = unit[p]; binMass += c; binDiff += c * u1; \
      if (K + c <= chHi) chunkSum += u1 * c; \
      else { chunk[ch] = chunkSum; ch = spreadOverChunks(chunk, ch, chHi, K, c, u1, N, base, extra); \
        chHi = N - chunkStart(ch, base, extra); chunkSum = chunk[ch]; } \
    } \
    K = K + c; \
    if (K >= opAtItems) { p++; break; } \
  } \
  st[ST_W0] = K; st[ST_E0] = E0; st[ST_AURC] = aurc; st[ST_A_BAL] = aBal; st[ST_A_WORST] = aWorst; \
  st[ST_SUM_ERR] = sumErr; st[ST_WRONG_ITEMS] = E0; st[ST_GRID_NEXT] = gi; st[ST_ITEMS] = K; \
  st[ST_NLL] = nll; st[ST_BRIER] = brier; \
  if (B > 0) chunk[ch] = chunkSum; \
  if (hasBins) { binSums[bin] += binMass; binSums[B1 + bin] = binDiff; } \
  st[ST_CHUNK] = ch; st[ST_CHUNK_HI] = chHi; \
  return p; \
}

WALKSP(walksp8, mult8)
WALK(walk8, mult8)
WALK(walk32, mult32)

static double rnd_s; static unsigned s32 = 12345;
static double rnd(void) { s32 ^= s32 << 13; s32 ^= s32 >> 17; s32 ^= s32 << 5; return s32 / 4294967296.0; }
int main(int argc, char **argv) {
  int n = 200000, C = 100, Gn = 2, Bn = 15, R = 200;
  int32_t *code_ = calloc(n, 4); uint8_t *m = calloc(n, 1); double *st_ = calloc(18, 8); double *gs_ = calloc(6, 8);
  double *bs_ = calloc(32, 8); double *ch_ = calloc(15, 8); double *H_ = calloc(n + 2, 8); double *u_ = calloc(n, 8);
  double *gk = calloc(101, 8); int32_t *cells_ = calloc(C * C, 4); int32_t *rh = calloc(C + 1, 4); int32_t *cw = calloc(n, 4); double *ct = calloc(2 * n, 8);
  for (int p = 0; p < n; p++) { int y = (int)(C * pow(rnd(), 2)); double conf = 1 - (double)p / n * 0.9; int wrong = rnd() > conf; int q = wrong ? (y + 1 + (int)(rnd() * 98)) % C : y;
    code_[p] = wrong | (((y < 69 ? 0 : 1) + 1) << 4); cw[p] = (y * C + q) | ((wrong ? 1 + (int)(rnd() * 5) : 0) << 20); ct[2*p] = -log(conf*0.9+0.05); ct[2*p+1] = (1-conf)*(1-conf); u_[p] = 1 - wrong - conf; }
  for (int k = 1; k < n + 2; k++) H_[k] = H_[k - 1] + 1.0 / k;
  setup(code_, m, 0, st_, gs_, bs_, ch_, H_, u_, gk, cells_, rh, cw, ct, Gn, Bn, 1, 1);
  double tot = 0;
  for (int b = 0; b < R; b++) {
    memset(m, 0, n); s32 = 777 + b * 7919; for (int i = 0; i < n; i++) m[(int)(rnd() * n)]++;
    memset(st_, 0, 18 * 8); st_[5] = Gn; st_[9] = n; st_[10] = n; int base = n / Bn, extra = n - base * Bn; st_[11] = Bn - 1; st_[12] = n - ((Bn-1)*base + ((Bn-1) < extra ? Bn-1 : extra)); st_[14] = INFINITY; st_[15] = 3; st_[7] = 101;
    for (int i = 0; i < 6; i++) gs_[i] = i >= 4 ? 1 : 0; memset(bs_, 0, 32*8); memset(ch_, 0, 15*8); memset(cells_, 0, C*C*4); memset(rh, 0, (C+1)*4);
    struct timespec t0, t1; clock_gettime(CLOCK_MONOTONIC, &t0);
    int p = 0; while (p < n) p = (argc > 1 ? walksp8_fn : walk8_fn)(p, p + 4096 < n ? p + 4096 : n, -1);
    clock_gettime(CLOCK_MONOTONIC, &t1); tot += (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
  }
  printf("native ns/row %.2f  aurc %.17g sumErr %.17g\n", tot / R / n, st_[2], st_[5]);
}
