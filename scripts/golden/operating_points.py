#!/usr/bin/python3
"""Golden values for several operating points (`targetCoverage` as a list), computed with numpy.

Run with Debian's python3 (python3-numpy): `/usr/bin/python3 scripts/golden/operating_points.py`.
Reads examples/digits-lt/logreg.csv (a `split` column, 150 val + 150 test rows; its config puts the
6 classes with the most training examples in group `head`, the other 4 in `tail`) and writes
test/golden/operating_points.json: for each target coverage c in 0.6, 0.7, 0.8, 0.9
- `threshold`: the confidence (max class probability) of the ⌈c·n_val⌉-th most confident validation
  row (the file has no tied confidences there, which the script checks);
- on the test rows, accepting confidence ≥ threshold: `coverage`, `selective_risk` (error rate of
  the accepted rows), `error_group` (error rate of the accepted rows whose true class is in the
  group; 1.0 when the group has no accepted row), `balanced_error` (their mean) and `worst_error`
  (their max) — Geifman & El-Yaniv, "Selective Classification for Deep Neural Networks", NeurIPS
  2017 (https://arxiv.org/abs/1705.08500); Sagawa et al., "Distributionally Robust Neural
  Networks for Group Shifts", ICLR 2020 (https://arxiv.org/abs/1911.08731).
"""
import csv
import json
import math
import os

import numpy as np

root = os.path.join(os.path.dirname(__file__), "..", "..")
src = os.path.join(root, "examples", "digits-lt", "logreg.csv")
with open(src) as f:
    rows = list(csv.DictReader(f))
train_counts = [16, 3, 25, 93, 39, 60, 11, 144, 4, 7]  # examples/digits-lt/eval-lens.json
head = set(np.argsort(-np.array(train_counts), kind="stable")[:6].tolist())
y = np.array([int(r["label"]) for r in rows])
pred = np.array([int(r["pred"]) for r in rows])
P = np.array([[float(r[f"prob_{c}"]) for c in range(10)] for r in rows])
split = np.array([r["split"] for r in rows])
val = split == "val"
test = split == "test"
conf = P.max(axis=1)
group = np.array(["head" if c in head else "tail" for c in y])

cv = np.sort(conf[val])[::-1]
out = []
for c in [0.6, 0.7, 0.8, 0.9]:
    k = math.ceil(c * len(cv))
    t = float(cv[k - 1])
    assert k == len(cv) or cv[k] < t, "a tie at the threshold"
    acc = conf[test] >= t
    wrong = pred[test] != y[test]
    g = group[test]
    eg = {}
    for name in ["head", "tail"]:
        a = acc & (g == name)
        eg[name] = float(wrong[a].mean()) if a.any() else 1.0
    out.append(
        {
            "targetCoverage": c,
            "threshold": t,
            "coverage": float(acc.mean()),
            "selective_risk": float(wrong[acc].mean()),
            "error_group": eg,
            "balanced_error": float(np.mean(list(eg.values()))),
            "worst_error": float(np.max(list(eg.values()))),
        }
    )
with open(os.path.join(root, "test", "golden", "operating_points.json"), "w") as f:
    json.dump({"source": "examples/digits-lt/logreg.csv", "operatingPoints": out}, f, indent=2)
    f.write("\n")
