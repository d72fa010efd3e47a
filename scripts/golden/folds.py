#!/usr/bin/python3
"""Golden values for per-fold stability (`tables.folds`): the headline metrics on each fold's rows
and their mean, sample standard deviation (ddof=1) and extremes over the folds, computed with
scikit-learn, numpy and pandas.

Run with Debian's python3 (python3-sklearn, python3-numpy, python3-pandas):
`/usr/bin/python3 scripts/golden/folds.py`. Reads examples/digits-lt/logreg.csv (a `split` column,
150 val + 150 test rows), adds a `fold` column (row i of the file, counting from 0, is in fold
`f<i mod 5>`), writes it to test/fixtures/folds/logreg-folds.csv and writes
test/golden/folds.json:
- `test`: per fold, on the fold's test rows (the split protocol computes every metric on the test
  rows): n, accuracy_score, f1_score(average="macro", labels = the classes present in the test rows'
  labels or predictions), and the expected calibration error of the top-label confidence (10
  equal-width bins (lo, hi], as the example's config sets; Guo et al., "On Calibration of Modern
  Neural Networks", ICML 2017, https://arxiv.org/abs/1706.04599);
- `summary`: per metric over the 5 folds: mean (numpy), std with ddof=1 (numpy `std(ddof=1)`,
  the same as pandas' `Series.std()` default, checked here), min and max; `std_ddof0` is numpy's
  default for comparison.
"""
import csv
import json
import os

import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score, f1_score

root = os.path.join(os.path.dirname(__file__), "..", "..")
src = os.path.join(root, "examples", "digits-lt", "logreg.csv")
with open(src) as f:
    reader = csv.DictReader(f)
    header = reader.fieldnames
    rows = list(reader)
for i, r in enumerate(rows):
    r["fold"] = f"f{i % 5}"
out_csv = os.path.join(root, "test", "fixtures", "folds", "logreg-folds.csv")
with open(out_csv, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=header + ["fold"], lineterminator="\n")
    w.writeheader()
    w.writerows(rows)

classes = list(range(10))
y = np.array([int(r["label"]) for r in rows])
pred = np.array([int(r["pred"]) for r in rows])
P = np.array([[float(r[f"prob_{c}"]) for c in classes] for r in rows])
split = np.array([r["split"] for r in rows])
fold = np.array([r["fold"] for r in rows])
test = split == "test"


def ece(mask, bins=10):
    """Σ_b |Σ_{i∈b} (correct_i − conf_i)| / n over the bins (lo, hi] of `bins` equal widths."""
    conf = P[mask].max(axis=1)
    gap = (pred[mask] == y[mask]).astype(float) - conf
    # the right-closed bin of each confidence: the first upper edge ≥ conf
    which = np.searchsorted(np.linspace(0, 1, bins + 1)[1:], conf, side="left")
    return float(sum(abs(gap[which == b].sum()) for b in range(bins)) / len(conf))


folds = {}
for name in sorted(set(fold)):
    m = test & (fold == name)
    folds[name] = {
        "n": int(m.sum()),
        "accuracy": float(accuracy_score(y[m], pred[m])),
        "macro_f1": float(f1_score(y[m], pred[m], average="macro", labels=np.union1d(y[m], pred[m]))),
        "ece": ece(m),
    }
summary = {}
for key in ["accuracy", "macro_f1", "ece"]:
    v = np.array([folds[k][key] for k in sorted(folds)])
    std1 = float(np.std(v, ddof=1))
    assert abs(std1 - float(pd.Series(v).std())) < 1e-15
    summary[key] = {
        "mean": float(np.mean(v)),
        "std": std1,
        "std_ddof0": float(np.std(v)),
        "min": float(v.min()),
        "max": float(v.max()),
    }
with open(os.path.join(root, "test", "golden", "folds.json"), "w") as f:
    json.dump({"test": folds, "summary": summary}, f, indent=2)
    f.write("\n")
