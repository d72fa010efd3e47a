#!/usr/bin/python3
"""Golden values for the per-slice statistics of src/core/inspect/sliceFinder.ts.

Run with Debian's python3 (scipy 1.10, statsmodels 0.13): `/usr/bin/python3 scripts/golden/slice_finder.py`.
Writes test/golden/slice_finder.json.

- Fisher's exact test, two-sided: scipy.stats.fisher_exact([[a, b], [c, d]]) (the one-run test
  of a slice, rows (slice, rest) x columns (right, wrong)).
- Wilson's score interval: statsmodels proportion_confint(k, n, alpha, method='wilson').
- Newcombe's hybrid score interval of p1 - p2: statsmodels
  confint_proportions_2indep(k1, n1, k2, n2, method='newcomb', compare='diff', alpha).
- McNemar's exact test: statsmodels mcnemar([[x, lost], [gained, y]], exact=True).
- Benjamini-Hochberg: statsmodels multipletests(p, method='fdr_bh').
"""
import json
import os

import numpy as np
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

rng = np.random.default_rng(20240728)

fisher = []
tables = [[1, 9, 11, 3], [30, 20, 400, 150], [0, 40, 900, 100], [5, 5, 5, 5], [120, 80, 1500, 700],
          [2, 0, 0, 2], [0, 0, 3, 4], [3000, 1000, 20000, 4000]]
for _ in range(12):
    n1 = int(rng.integers(30, 3000))
    n2 = int(rng.integers(30, 30000))
    a = int(rng.binomial(n1, 0.7))
    c = int(rng.binomial(n2, 0.75))
    tables.append([a, n1 - a, c, n2 - c])
for a, b, c, d in tables:
    fisher.append({"table": [a, b, c, d], "p": float(stats.fisher_exact([[a, b], [c, d]])[1])})

wilson = []
for k, n, conf in [(1, 10, 0.95), (30, 50, 0.95), (0, 40, 0.95), (40, 40, 0.9), (613, 800, 0.99), (7, 31, 0.95)]:
    lo, hi = proportion_confint(k, n, alpha=1 - conf, method="wilson")
    wilson.append({"k": k, "n": n, "confidence": conf, "ci": [float(lo), float(hi)]})

newcombe = []
for k1, n1, k2, n2, conf in [(1, 10, 11, 14, 0.95), (30, 50, 400, 550, 0.95), (0, 40, 900, 1000, 0.95),
                             (450, 600, 1900, 2400, 0.9)]:
    lo, hi = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff", alpha=1 - conf)
    newcombe.append({"k1": k1, "n1": n1, "k2": k2, "n2": n2, "confidence": conf, "ci": [float(lo), float(hi)]})

mcn = []
for lost, gained in [(1, 5), (0, 0), (12, 3), (40, 61), (200, 150)]:
    mcn.append({"lost": lost, "gained": gained,
                "p": float(mcnemar([[10, lost], [gained, 10]], exact=True).pvalue)})

ps = [float(x) for x in rng.uniform(0, 0.2, 30)] + [0.0001, 0.003]
bh = {"p": ps, "q": [float(x) for x in multipletests(ps, method="fdr_bh")[1]]}

out = os.path.join(os.path.dirname(__file__), "..", "..", "test", "golden", "slice_finder.json")
with open(out, "w") as f:
    json.dump({"fisher": fisher, "wilson": wilson, "newcombe": newcombe, "mcnemar": mcn, "bh": bh}, f, indent=1)
    f.write("\n")
print("wrote", os.path.normpath(out))
