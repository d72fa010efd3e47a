// The unit-mass walk's per-row steps with L resamples walked together (one pass over the rows, each
// resample's running sums its own lane): does walking several resamples at once hide the latency of
// one? Two groups, ECE bin and chunk sums, the classification sums; no events (grid points, tied
// blocks, the operating point), which the synthetic input does not need. -DNB: no branch on a row
// not drawn (its steps add exact zeros). Every build gives the same sums (the "check" line).
//   clang -O3 -ffp-contract=off -march=native -DL=4 [-DNB] -o interleaved interleaved.c -lm
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdint.h>
#include <time.h>
#include <stddef.h>
#define CODE_WRONG 1
#define CODE_GROUP_SHIFT 4
#define CLS_CELL_BITS 20
#define CLS_CELL_MASK ((1 << CLS_CELL_BITS) - 1)
#ifndef L
#define L 4
#endif
typedef struct { double E0, aurc, aBal, aWorst, sumErr, binDiff, chunkSum, nll, brier; int K; double gs[6]; int32_t *cells; int32_t *rh; } Lane;
static unsigned s32 = 12345;
static double rnd(void) { s32 ^= s32 << 13; s32 ^= s32 >> 17; s32 ^= s32 << 5; return s32 / 4294967296.0; }

static inline void step(Lane *ln, int cd, int c, int p, const double *H, const int32_t *cw, const double *ct, const double *unit) {
#ifndef NB
  if (c == 0) { const int g = (cd >> CODE_GROUP_SHIFT) - 1; if (ln->gs[g] > 0) ln->sumErr = ln->sumErr - ln->gs[4 + g] + ln->gs[4 + g]; return; }
#endif
  const int wd = cw[p]; ln->cells[wd & CLS_CELL_MASK] += c; ln->rh[(uint32_t)wd >> CLS_CELL_BITS] += c;
  ln->nll += c * ct[2 * p]; ln->brier += c * ct[2 * p + 1];
  const int wr = cd & CODE_WRONG; const int K = ln->K;
  const double dH = H[K + c] - H[K];
  ln->aurc += ln->E0 * dH + wr * (c - K * dH);
  const int g = (cd >> CODE_GROUP_SHIFT) - 1;
  double *gs = ln->gs;
  const double gw = gs[g], ge = gs[2 + g];
  const double dHg = H[(int)(gw + c)] - H[(int)gw];
  const double sumEg = ge * dHg + wr * (c - gw * dHg);
  const double others = ln->sumErr - gs[4 + g];
  ln->aBal += c * others + sumEg;
  const double mxOther = gs[4 + 1 - g];
  const double m1 = mxOther * (gw + 1), mC = mxOther * (gw + c);
  const int lo = (ge + wr <= m1) & (ge + wr * c <= mC);
  const int hi = (ge + wr >= m1) & (ge + wr * c >= mC);
  if ((lo | hi) == 0 && c > 0) { for (int j = 1; j <= c; j++) { double v = (ge + wr * j) / (gw + j); ln->aWorst += mxOther > v ? mxOther : v; } }
  else ln->aWorst += lo ? c * mxOther : sumEg;
  const double nw = gw + c, ne = ge + wr * c;
  gs[g] = nw; gs[2 + g] = ne; const double e = nw > 0 ? ne / nw : gs[4 + g]; ln->sumErr = others + e; gs[4 + g] = e;
  ln->E0 += wr * c;
  const double u1 = unit[p]; ln->binDiff += c * u1; ln->chunkSum += u1 * c;
  ln->K = K + c;
}

int main(int argc, char **argv) {
  int n = 200000, C = 100, R = 200;
  int32_t *code_ = calloc(n, 4); double *H_ = calloc(n + 2, 8); double *u_ = calloc(n, 8);
  int32_t *cw = calloc(n, 4); double *ct = calloc(2 * n, 8);
  for (int p = 0; p < n; p++) { int y = (int)(C * pow(rnd(), 2)); double conf = 1 - (double)p / n * 0.9; int wrong = rnd() > conf; int q = wrong ? (y + 1 + (int)(rnd() * 98)) % C : y;
    code_[p] = wrong | (((y < 69 ? 0 : 1) + 1) << 4); cw[p] = (y * C + q) | ((wrong ? 1 + (int)(rnd() * 5) : 0) << 20); ct[2*p] = -log(conf*0.9+0.05); ct[2*p+1] = (1-conf)*(1-conf); u_[p] = 1 - wrong - conf; }
  for (int k = 1; k < n + 2; k++) H_[k] = H_[k - 1] + 1.0 / k;
  // multiplicities: lane-interleaved bytes m[p*L + l]
  uint8_t *m = calloc((size_t)n * L, 1);
  Lane ln[L];
  for (int l = 0; l < L; l++) { ln[l].cells = calloc(C * C, 4); ln[l].rh = calloc(C + 1, 4); }
  double tot = 0, check = 0;
  for (int b = 0; b < R; b += L) {
    memset(m, 0, (size_t)n * L);
    for (int l = 0; l < L; l++) { s32 = 777 + (b + l) * 7919; for (int i = 0; i < n; i++) m[(size_t)(int)(rnd() * n) * L + l]++; }
    for (int l = 0; l < L; l++) { memset(&ln[l], 0, offsetof(Lane, cells)); ln[l].gs[4] = ln[l].gs[5] = 1; ln[l].sumErr = 2; memset(ln[l].cells, 0, C*C*4); memset(ln[l].rh, 0, (C+1)*4); }
    struct timespec t0, t1; clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int p = 0; p < n; p++) {
      const int cd = code_[p];
      for (int l = 0; l < L; l++) step(&ln[l], cd, m[(size_t)p * L + l], p, H_, cw, ct, u_);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1); tot += (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
    for (int l = 0; l < L; l++) check += ln[l].aurc + ln[l].sumErr;
  }
  printf("L=%d ns/row/resample %.2f  check %.17g\n", L, tot / R / n, check);
}
