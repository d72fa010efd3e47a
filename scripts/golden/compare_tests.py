#!/usr/bin/python3
"""Golden values for the comparison's McNemar test and multiple-testing adjustments
(src/core/stats/tests.ts `mcnemarExact`, `holmAdjust`, `bhAdjust`).

Run with Debian's python3 (python3-statsmodels, python3-scipy):
`/usr/bin/python3 scripts/golden/compare_tests.py`. Writes test/golden/compare_tests.json.

- McNemar, exact: statsmodels.stats.contingency_tables.mcnemar([[n11, b], [c, n00]], exact=True),
  the two-sided binomial test of the discordant pairs; checked against
  scipy.stats.binomtest(min(b, c), b + c, 0.5).pvalue as well.
- Holm and Benjamini–Hochberg: statsmodels.stats.multitest.multipletests(p, method='holm' | 'fdr_bh').
"""
import json
import os

import numpy as np
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

rng = np.random.default_rng(20261127)

mc = []
for b, c in [(0, 0), (0, 1), (1, 5), (5, 1), (3, 3), (10, 25), (40, 60), (0, 30), (200, 260), (1000, 1100), (7, 0)]:
    p = mcnemar([[50, b], [c, 50]], exact=True).pvalue
    if b + c > 0:
        assert abs(p - stats.binomtest(min(b, c), b + c, 0.5).pvalue) <= 1e-12 * max(1.0, p)
    mc.append({"b": b, "c": c, "p": float(p)})

adj = []
cases = [
    [0.01, 0.04, 0.03, 0.005],
    [0.5, 0.5, 0.5],
    [1e-10, 0.2, 0.049, 0.051, 0.9, 0.0001],
    list(rng.uniform(0, 0.2, 12)),
    list(rng.uniform(0, 1, 30)),
    [0.02, 0.02, 0.02, 0.04, 0.04],
]
for p in cases:
    p = [float(x) for x in p]
    adj.append({
        "p": p,
        "holm": [float(x) for x in multipletests(p, method="holm")[1]],
        "bh": [float(x) for x in multipletests(p, method="fdr_bh")[1]],
    })

out = os.path.join(os.path.dirname(__file__), "..", "..", "test", "golden", "compare_tests.json")
with open(out, "w") as f:
    json.dump({"mcnemar": mc, "adjust": adj}, f, indent=1)
    f.write("\n")
print("wrote", os.path.normpath(out))
