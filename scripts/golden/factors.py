#!/usr/bin/python3
"""Writes test/golden/factors.json: a NumPy reference for top-K lists from factor matrices, with
Debian's python3-numpy (run with /usr/bin/python3 from the repository root):

    /usr/bin/python3 scripts/golden/factors.py

Two cases:
- "ties": small integer factors, so many scores are exactly equal; the tie rule (equal scores:
  the item listed first in the item id list ranks higher) decides the order.
- "random": float64 normal factors; scores compared with a tolerance (the summation order of a
  BLAS matrix product differs from a plain loop), lists compared exactly.
Each user's train items are masked (score set to -inf and dropped); a user with fewer than k
unmasked items gets all of them.
"""
import json
import os

import numpy as np


def topk(U, V, train, k):
    scores = U @ V.T
    lists, kept = [], []
    pos = np.arange(V.shape[0])
    for u in range(U.shape[0]):
        s = scores[u].copy()
        ok = np.ones(V.shape[0], dtype=bool)
        ok[list(train[u])] = False
        # np.lexsort sorts by the last key first: score descending, then item position ascending.
        order = np.lexsort((pos, -s))
        order = [int(i) for i in order if ok[i]][:k]
        lists.append(order)
        kept.append([float(s[i]) for i in order])
    return scores, lists, kept


rng = np.random.default_rng(20261124)
cases = {}
# Ties: factors in {-1, 0, 1, 2}; user 3 has every item in train; k exceeds the unmasked count for user 2.
U = rng.integers(-1, 3, size=(6, 3)).astype(np.float64)
V = rng.integers(-1, 3, size=(9, 3)).astype(np.float64)
train = [[0, 4], [], [0, 1, 2, 3, 4, 5], list(range(9)), [8], [2, 7]]
cases["ties"] = (U, V, train, 4)
U = rng.normal(size=(40, 8))
V = rng.normal(size=(70, 8))
train = [sorted(rng.choice(70, size=int(rng.integers(0, 10)), replace=False).tolist()) for _ in range(40)]
cases["random"] = (U, V, train, 10)

out = {}
for name, (U, V, train, k) in cases.items():
    scores, lists, kept = topk(U, V, train, k)
    out[name] = {
        "k": k,
        "U": U.tolist(),
        "V": V.tolist(),
        "train": train,
        "scores": scores.tolist(),
        "topk": lists,
        "topkScores": kept,
    }
path = os.path.join(os.getcwd(), "test", "golden", "factors.json")
with open(path, "w") as f:
    json.dump(out, f)
print("wrote", path)
