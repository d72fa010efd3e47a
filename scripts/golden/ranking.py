#!/usr/bin/python3
"""Golden NDCG values for the ranking metrics (docs/metrics/ranking.md), from scikit-learn 1.2.1.

Run with Debian's python (it has scikit-learn):  /usr/bin/python3 scripts/golden/ranking.py

Writes test/golden/ranking.json: random users (fixed seed), each with a ranked list, graded
relevant items (some of them outside the list), and per user `sklearn.metrics.ndcg_score` at
each K, with linear gain (y_true = grade) and with exp gain (y_true = 2^grade - 1, which is
how the exponential gain is expressed to a linear-gain implementation).

How ranked lists become the full score vectors scikit-learn scores:
  * the universe is the 60 item ids; an item at rank r (1-based) of a list of length L gets the
    score L - r + 1 (distinct, descending), every other item the score 0;
  * scikit-learn averages the gain over tied scores (ignore_ties=False); the only tie is the
    block of unlisted items at score 0, which starts at position L + 1, so every case uses
    K <= L and the tie never reaches the top K;
  * scikit-learn's ideal DCG sorts y_true over the whole universe, i.e. the best ordering of the
    user's relevant items, as Eval Lens does (relevant items outside the list included).
Also written: a `binary` block (grades all 1) for the same lists.
"""
import json
import os

import numpy as np
from sklearn.metrics import ndcg_score

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
OUT = os.path.join(ROOT, 'test', 'golden', 'ranking.json')
N_ITEMS = 60
KS = [1, 3, 5, 10]


def main():
    rng = np.random.default_rng(20240505)
    ids = [f"i{k:02d}" for k in range(N_ITEMS)]
    users = []
    for u in range(120):
        L = int(rng.integers(10, 31))
        lst = rng.permutation(N_ITEMS)[:L]
        n_rel = int(rng.integers(1, 9))
        # relevant items: some from the list, some outside it
        rel_items = rng.permutation(N_ITEMS)[:n_rel]
        grades = rng.integers(1, 4, size=n_rel)
        users.append({"user": f"u{u:03d}", "items": [ids[i] for i in lst],
                      "relevant": {ids[i]: int(g) for i, g in zip(rel_items, grades)}})
    out = {"ks": KS, "users": users, "ndcg_linear": {}, "ndcg_exp": {}, "ndcg_binary": {}}
    for K in KS:
        lin, exp, binr = [], [], []
        for x in users:
            L = len(x["items"])
            assert K <= L
            score = np.zeros(N_ITEMS)
            for r, it in enumerate(x["items"]):
                score[ids.index(it)] = L - r
            g = np.zeros(N_ITEMS)
            for it, gr in x["relevant"].items():
                g[ids.index(it)] = gr
            lin.append(float(ndcg_score(g[None, :], score[None, :], k=K)))
            exp.append(float(ndcg_score((2.0 ** g - 1)[None, :], score[None, :], k=K)))
            binr.append(float(ndcg_score((g > 0).astype(float)[None, :], score[None, :], k=K)))
        out["ndcg_linear"][str(K)] = lin
        out["ndcg_exp"][str(K)] = exp
        out["ndcg_binary"][str(K)] = binr
    with open(OUT, "w") as f:
        json.dump(out, f, indent=0)
    print(f"wrote {OUT}: {len(users)} users, K = {KS}")


if __name__ == "__main__":
    main()
