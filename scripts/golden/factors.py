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

# The "random" case as factor files in every accepted format, for the format test
# (test/unit/factors/formats.test.ts): .npy (float64), .npz (compressed, named arrays; and a file
# with one unnamed array), CSV `id,f1,…,fk` with a header and TSV without, the values written with
# 17 significant digits so that they read back as the same float64.
g = cases["random"]
U, V, train, k = g
fdir = os.path.join(os.getcwd(), "test", "golden", "factor-formats")
os.makedirs(fdir, exist_ok=True)
users = [f"u{u}" for u in range(U.shape[0])]
items = [f"item{i}" for i in range(V.shape[0])]
np.save(os.path.join(fdir, "U.npy"), U)
np.save(os.path.join(fdir, "V.npy"), V)
np.savez_compressed(os.path.join(fdir, "factors.npz"), user_factors=U, item_factors=V)
np.savez(os.path.join(fdir, "V_only.npz"), V)
with open(os.path.join(fdir, "U.csv"), "w") as f:
    f.write("user," + ",".join(f"f{j + 1}" for j in range(U.shape[1])) + "\n")
    for uid, row in zip(users, U):
        f.write(uid + "," + ",".join("%.17g" % x for x in row) + "\n")
with open(os.path.join(fdir, "V.tsv"), "w") as f:
    for iid, row in zip(items, V):
        f.write(iid + "\t" + "\t".join("%.17g" % x for x in row) + "\n")
with open(os.path.join(fdir, "user_ids.txt"), "w") as f:
    f.write("\n".join(users) + "\n")
with open(os.path.join(fdir, "item_ids.txt"), "w") as f:
    f.write("\n".join(items) + "\n")
with open(os.path.join(fdir, "train.csv"), "w") as f:
    f.write("user,item\n" + "".join(f"u{u},item{i}\n" for u, t in enumerate(train) for i in t))
grng = np.random.default_rng(7)
with open(os.path.join(fdir, "relevant.csv"), "w") as f:
    f.write("user,item\n")
    for u in range(U.shape[0]):
        for i in sorted(grng.choice(V.shape[0], size=3, replace=False).tolist()):
            f.write(f"u{u},item{i}\n")
print("wrote", fdir)
