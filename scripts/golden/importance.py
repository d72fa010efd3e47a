#!/usr/bin/python3
"""Golden values for the importance-weighted binary family (src/core/metrics/importance.ts,
src/core/metrics/binaryCurve.ts, src/core/tasks/iwBinary.ts).

Run with Debian's python3 (scikit-learn 1.2.1): `/usr/bin/python3 scripts/golden/importance.py`.
Writes, deterministically (seeded):
- test/golden/importance.json: random cases (labels, scores with ties, weights: stratum weights,
  arbitrary positive weights, some zero weights) with scikit-learn's
  average_precision_score(y, s, sample_weight=w), roc_auc_score(..., sample_weight=w),
  auc(recall, precision) from precision_recall_curve(..., sample_weight=w), the PR and ROC curves
  (roc_curve with drop_intermediate=False), and precision/recall/f1 at a threshold
  (predicted positive iff s >= t) from precision_score / recall_score / f1_score with
  sample_weight=w, and the error rate at the threshold as 1 - accuracy_score(y, pred,
  sample_weight=w).
- test/fixtures/iw/golden_strata_<k>.csv + test/golden/importance_e2e.json: files with a stratum
  column and the sizes |U| and |B| for the end-to-end runner; the weights are computed here from
  docs/metrics/importance.md (w_B = (|B|/b)/|U|, w_Bc = ((|U|-|B|)/m)/|U|), independently of the TS code.

Conventions where scikit-learn has no answer: precision with no positive prediction is null (the
tool's value; scikit-learn returns 0 with a warning); the keys undefined for a case are null.
"""
import json
import os
import warnings

import numpy as np
from sklearn.metrics import (
    accuracy_score,
    auc,
    average_precision_score,
    f1_score,
    precision_recall_curve,
    precision_score,
    recall_score,
    roc_auc_score,
    roc_curve,
)

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
rng = np.random.default_rng(20261122)
warnings.simplefilter("ignore")


def f(x):
    return [float(v) for v in x]


def values(y, s, w, t):
    y = np.asarray(y, dtype=int)
    s = np.asarray(s, dtype=float)
    w = np.asarray(w, dtype=float)
    pos_w = float(np.sum(w * y))
    neg_w = float(np.sum(w * (1 - y)))
    pred = (s >= t).astype(int)
    out = {"threshold": t}
    predicted_w = float(np.sum(w * pred))
    out["precision"] = float(precision_score(y, pred, sample_weight=w, zero_division=0)) if predicted_w > 0 else None
    out["recall"] = float(recall_score(y, pred, sample_weight=w, zero_division=0)) if pos_w > 0 else None
    out["f1"] = float(f1_score(y, pred, sample_weight=w, zero_division=0)) if (pos_w > 0 or predicted_w > 0) else None
    out["error_rate"] = float(1 - accuracy_score(y, pred, sample_weight=w)) if float(np.sum(w)) > 0 else None
    if pos_w > 0:
        p, r, th = precision_recall_curve(y, s, sample_weight=w)
        out["average_precision"] = float(average_precision_score(y, s, sample_weight=w))
        out["aupr_trapz"] = float(auc(r, p))
        # scikit-learn lists points by decreasing recall with the start point last; the tool lists
        # them by increasing recall from the start point.
        out["pr"] = {"recall": f(r[::-1]), "precision": f(p[::-1]), "threshold": [None] + f(th[::-1])}
    else:
        out["average_precision"] = out["aupr_trapz"] = None
        out["pr"] = None
    if pos_w > 0 and neg_w > 0:
        out["roc_auc"] = float(roc_auc_score(y, s, sample_weight=w))
        fpr, tpr, _ = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
        out["roc"] = {"fpr": f(fpr), "tpr": f(tpr)}
    else:
        out["roc_auc"] = None
        out["roc"] = None
    return out


def random_case(name, n, decimals, weight_kind, t=0.5, pos_rate=0.3):
    y = (rng.random(n) < pos_rate).astype(int)
    # scores correlated with the label, rounded so that ties occur
    s = np.clip(0.35 * y + rng.random(n) * 0.75, 0, 1)
    s = np.round(s, decimals)
    if weight_kind == "strata":
        strata = (rng.random(n) < 0.4).astype(int)  # 1 = Bc
        w = np.where(strata == 1, 0.018, 0.001)
    elif weight_kind == "zeros":
        w = rng.random(n) * 3
        w[rng.random(n) < 0.2] = 0.0
    else:
        w = rng.random(n) * 3 + 0.01
    case = {"name": name, "y": [int(v) for v in y], "s": f(s), "w": f(w)}
    case.update(values(y, s, w, t))
    return case


cases = []
for i, (n, dec, kind) in enumerate(
    [
        (6, 1, "strata"),
        (12, 1, "random"),
        (30, 1, "zeros"),
        (50, 2, "strata"),
        (80, 1, "random"),
        (200, 2, "zeros"),
        (300, 3, "strata"),
        (500, 2, "random"),
        (1000, 4, "strata"),
        (40, 0, "random"),
    ]
):
    cases.append(random_case(f"random_{i}_n{n}_d{dec}_{kind}", n, dec, kind))

# A threshold above every score: no positive prediction.
c = random_case("no_positive_prediction", 40, 2, "random")
c.update(values(c["y"], c["s"], c["w"], 1.5))
cases.append(c)
# All weights equal: the weighted values are the unweighted ones.
y = [1, 0, 1, 1, 0, 0, 1, 0, 0, 0]
s = [0.9, 0.9, 0.8, 0.6, 0.6, 0.6, 0.3, 0.3, 0.2, 0.1]
cases.append({"name": "equal_weights_ties", "y": y, "s": s, "w": [2.5] * 10, **values(y, s, [2.5] * 10, 0.5)})
cases.append({"name": "unit_weights_ties", "y": y, "s": s, "w": [1.0] * 10, **values(y, s, [1.0] * 10, 0.5)})

os.makedirs(os.path.join(ROOT, "test", "golden"), exist_ok=True)
with open(os.path.join(ROOT, "test", "golden", "importance.json"), "w") as fh:
    json.dump({"generator": "scripts/golden/importance.py", "sklearn": "1.2.1", "cases": cases}, fh, indent=1)

# End-to-end files: stratum column + sizes.
e2e = []
fixdir = os.path.join(ROOT, "test", "fixtures", "iw")
os.makedirs(fixdir, exist_ok=True)
for k, (b, m, U, Bsize, dec) in enumerate([(60, 40, 2000, 60, 2), (120, 80, 10000, 300, 1)]):
    n = b + m
    strata = np.array(["B"] * b + ["Bc"] * m)
    y = np.where(strata == "B", rng.random(n) < 0.5, rng.random(n) < 0.08).astype(int)
    s = np.round(np.clip(0.4 * y + rng.random(n) * 0.7, 0, 1), dec)
    perm = rng.permutation(n)
    strata, y, s = strata[perm], y[perm], s[perm]
    wB = (Bsize / b) / U
    wBc = ((U - Bsize) / m) / U
    w = np.where(strata == "B", wB, wBc)
    path = os.path.join(fixdir, f"golden_strata_{k}.csv")
    with open(path, "w") as fh:
        fh.write("id,label,score,stratum\n")
        for i in range(n):
            fh.write(f"r{i},{y[i]},{s[i]:.{dec}f},{strata[i]}\n")
    ev = values(y, s, w, 0.5)
    uv = values(y, s, np.ones(n), 0.5)
    keys = ["precision", "recall", "f1", "aupr_trapz", "average_precision", "roc_auc", "error_rate"]
    e2e.append(
        {
            "file": f"test/fixtures/iw/golden_strata_{k}.csv",
            "populationSize": U,
            "biasedSize": Bsize,
            "wB": wB,
            "wBc": wBc,
            "weighted": {key: ev[key] for key in keys},
            "unweighted": {key: uv[key] for key in keys},
            "pr": ev["pr"],
            "roc": ev["roc"],
        }
    )
with open(os.path.join(ROOT, "test", "golden", "importance_e2e.json"), "w") as fh:
    json.dump({"generator": "scripts/golden/importance.py", "sklearn": "1.2.1", "cases": e2e}, fh, indent=1)
print(f"wrote {len(cases)} cases and {len(e2e)} end-to-end files")
