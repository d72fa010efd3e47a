#!/usr/bin/python3
"""Golden values for `eval-lens diff` (src/core/compare/diffRows.ts), computed with pandas.

Run with Debian's python3 (python3-pandas): `/usr/bin/python3 scripts/golden/diff_rows.py`.
Writes test/golden/diff_rows.json: for examples/digits-lt, logreg.csv (A) against knn.csv (B)
and svc_rbf.csv (B), rows paired by id:
- the four cells of correctness and the ids that flipped, worst for B first (lost rows, then
  gained), each group in A's file order;
- per row −ln max(p_true, 1e-15), and the ids whose loss changed, largest increase first.
"""
import json
import os

import numpy as np
import pandas as pd

root = os.path.join(os.path.dirname(__file__), "..", "..")
d = os.path.join(root, "examples", "digits-lt")
out = {}
a = pd.read_csv(os.path.join(d, "logreg.csv"), dtype={"id": str})
a["order"] = np.arange(len(a))
for other in ["knn.csv", "svc_rbf.csv"]:
    b = pd.read_csv(os.path.join(d, other), dtype={"id": str})
    m = a.merge(b, on="id", suffixes=("_a", "_b"))
    assert len(m) == len(a) == len(b)
    assert (m["label_a"] == m["label_b"]).all()
    ca = m["label_a"] == m["pred_a"]
    cb = m["label_b"] == m["pred_b"]
    cells = {
        "bothRight": int((ca & cb).sum()),
        "lost": int((ca & ~cb).sum()),
        "gained": int((~ca & cb).sum()),
        "bothWrong": int((~ca & ~cb).sum()),
    }
    m["change"] = cb.astype(int) - ca.astype(int)
    flipped = m[m["change"] != 0].sort_values(["change", "order"], kind="stable")

    def loss(side):
        p = np.array([m.loc[i, f"prob_{int(m.loc[i, 'label_a'])}_{side}"] for i in m.index], dtype=float)
        return -np.log(np.maximum(p, 1e-15))

    m["nll_a"] = loss("a")
    m["nll_b"] = loss("b")
    m["dnll"] = m["nll_b"] - m["nll_a"]
    changed = m[m["nll_a"] != m["nll_b"]].copy()
    changed["key"] = -changed["dnll"]
    changed = changed.sort_values(["key", "order"], kind="stable")
    out[other] = {
        "cells": cells,
        "flipped": flipped["id"].tolist(),
        "delta_accuracy": float(cb.mean() - ca.mean()),
        "nll_changed": changed["id"].tolist()[:20],
        "nll_change": changed["dnll"].tolist()[:20],
        "nll_changed_count": int(len(changed)),
        "delta_nll": float(m["nll_b"].mean() - m["nll_a"].mean()),
    }
with open(os.path.join(root, "test", "golden", "diff_rows.json"), "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print("wrote test/golden/diff_rows.json")
