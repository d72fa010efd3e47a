#!/usr/bin/python3
"""Golden values for the comparison's McNemar test and multiple-testing adjustments
(src/core/stats/tests.ts `mcnemarExact`, `holmAdjust`, `bhAdjust`).

Run with Debian's python3 (python3-statsmodels, python3-scipy):
`/usr/bin/python3 scripts/golden/compare_tests.py`. Writes test/golden/compare_tests.json.

- McNemar, exact: statsmodels.stats.contingency_tables.mcnemar([[n11, b], [c, n00]], exact=True),
  the two-sided binomial test of the discordant pairs; checked against
  scipy.stats.binomtest(min(b, c), b + c, 0.5).pvalue as well.
- Holm and Benjamini–Hochberg: statsmodels.stats.multitest.multipletests(p, method='holm' | 'fdr_bh').
- The majority and prior baseline runs (src/core/tasks/baselineRun.ts): sklearn.dummy.DummyClassifier
  with strategy 'most_frequent' / 'prior' fitted on the evaluated labels themselves (with and without
  sample weights); accuracy_score, balanced_accuracy_score, f1_score(average='macro'), log_loss of
  predict_proba (prior only: the majority's one-hot probabilities meet log_loss's own clipping), and
  the multiclass Brier score mean(Σ_c (p_c − 1[c = y])²) of predict_proba.
"""
import json
import os

import numpy as np
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from sklearn.dummy import DummyClassifier
from sklearn.metrics import accuracy_score, balanced_accuracy_score, f1_score, log_loss

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

dummy = []
for n, freq, weighted in [(40, [0.5, 0.3, 0.2], False), (300, [0.1, 0.45, 0.15, 0.3], False), (250, [0.35, 0.25, 0.4], True)]:
    y = rng.choice(len(freq), size=n, p=freq)
    w = rng.uniform(0.2, 3.0, n) if weighted else None
    X = np.zeros((n, 1))
    case = {"labels": [int(v) for v in y], "weights": None if w is None else [float(v) for v in w]}
    for strategy, name in [("most_frequent", "majority"), ("prior", "prior")]:
        clf = DummyClassifier(strategy=strategy).fit(X, y, sample_weight=w)
        pred = clf.predict(X)
        P = clf.predict_proba(X)
        onehot = np.eye(len(clf.classes_))[np.searchsorted(clf.classes_, y)]
        brier = float(np.average(((P - onehot) ** 2).sum(axis=1), weights=w))
        m = {
            "accuracy": float(accuracy_score(y, pred, sample_weight=w)),
            "balanced_accuracy": float(balanced_accuracy_score(y, pred, sample_weight=w)),
            "macro_f1": float(f1_score(y, pred, average="macro", sample_weight=w, zero_division=0)),
            "brier": brier,
        }
        if name == "prior":
            m["nll"] = float(log_loss(y, P, sample_weight=w, labels=clf.classes_))
        case[name] = m
    dummy.append(case)

out = os.path.join(os.path.dirname(__file__), "..", "..", "test", "golden", "compare_tests.json")
with open(out, "w") as f:
    json.dump({"mcnemar": mc, "adjust": adj, "dummy": dummy}, f, indent=1)
    f.write("\n")
print("wrote", os.path.normpath(out))
