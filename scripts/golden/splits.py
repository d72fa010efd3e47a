#!/usr/bin/python3
"""Golden values for the validation/test split: every metric on the test rows, the threshold of
`targetCoverage` chosen on the validation rows, computed with scikit-learn and numpy.

Run with Debian's python3 (python3-sklearn, python3-numpy): `/usr/bin/python3 scripts/golden/splits.py`.
Reads examples/digits-lt/logreg.csv (a `split` column, 150 val + 150 test rows) and writes
test/golden/splits.json:
- `test`: accuracy_score, balanced_accuracy_score, f1_score(average="macro"), log_loss and the
  multi-class Brier score on the test rows only; `all`: the same on every row (metricsOn "all").
- `ece`: the expected calibration error of the top-label confidence on the test rows, 10
  equal-width bins (lo, hi] (Guo et al., "On Calibration of Modern Neural Networks", ICML 2017,
  https://arxiv.org/abs/1706.04599).
- `threshold`: for targetCoverage 0.8, the confidence of the ⌈0.8·n_val⌉-th most confident
  validation row (no ties in this file); `coverage` and `selective_risk` of "accept confidence ≥
  threshold" on the test rows (Geifman & El-Yaniv, "Selective Classification for Deep Neural
  Networks", NeurIPS 2017, https://arxiv.org/abs/1705.08500).
"""
import csv
import json
import math
import os

import numpy as np
from sklearn.metrics import accuracy_score, balanced_accuracy_score, f1_score, log_loss

root = os.path.join(os.path.dirname(__file__), "..", "..")
src = os.path.join(root, "examples", "digits-lt", "logreg.csv")
with open(src) as f:
    rows = list(csv.DictReader(f))
classes = list(range(10))
y = np.array([int(r["label"]) for r in rows])
pred = np.array([int(r["pred"]) for r in rows])
P = np.array([[float(r[f"prob_{c}"]) for c in classes] for r in rows])
split = np.array([r["split"] for r in rows])
val = split == "val"
test = split == "test"


def family(mask):
    yt, pt, Pt = y[mask], pred[mask], P[mask]
    onehot = np.eye(len(classes))[yt]
    return {
        "n": int(mask.sum()),
        "accuracy": float(accuracy_score(yt, pt)),
        "balanced_accuracy": float(balanced_accuracy_score(yt, pt)),
        "macro_f1": float(f1_score(yt, pt, average="macro")),
        # probabilities as written (not renormalised), clipped at 1e-15 as the tool does
        "nll": float(np.mean(-np.log(np.maximum(Pt[np.arange(len(yt)), yt], 1e-15)))),
        "nll_sklearn": float(log_loss(yt, Pt / Pt.sum(axis=1, keepdims=True), labels=classes)),
        "brier": float(np.mean(np.sum((Pt - onehot) ** 2, axis=1))),
    }


def ece(mask, bins=10):
    conf = P[mask].max(axis=1)
    correct = (pred[mask] == y[mask]).astype(float)
    edges = np.linspace(0, 1, bins + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        inb = (conf > lo) & (conf <= hi)
        if inb.any():
            total += inb.sum() / len(conf) * abs(correct[inb].mean() - conf[inb].mean())
    return float(total)


conf = P.max(axis=1)
cv = np.sort(conf[val])[::-1]
k = math.ceil(0.8 * len(cv))
threshold = float(cv[k - 1])
acc_test = conf[test] >= threshold
wrong_test = pred[test] != y[test]
result = {
    "test": family(test),
    "all": family(np.ones(len(y), dtype=bool)),
    "ece_test": ece(test),
    "threshold": threshold,
    "coverage": float(acc_test.mean()),
    "selective_risk": float(wrong_test[acc_test].mean()),
}
with open(os.path.join(root, "test", "golden", "splits.json"), "w") as f:
    json.dump(result, f, indent=1)
    f.write("\n")
