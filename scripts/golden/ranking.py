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
Also written: a `binary` block (grades all 1) for the same lists, and `ndcg_std`: per gain
(linear, exp, binary) and K, np.std (ddof=0, the population standard deviation) of those
per-user values over the users, the spread over users ndcg_std@K.

And test/golden/ranking_spread.json: the spread over users of the embedding metrics, numpy only.
Random users with lists over 40 items that have random 5-dimensional vectors (some items without
one), and random user profile vectors (some users without one); per user and K, by their
definitions:
  * diversity = 1 - mean over pairs i < j of cos(x_i, x_j), over the top-K items that have a
    vector; undefined (left out) with fewer than two;
  * alignment = mean over the top-K items with a vector of cos(profile_u, x_i); undefined
    without a profile or without such an item;
and over the users where each is defined, np.mean and np.std (ddof=0, the population standard
deviation): diversity@K / diversity_std@K and alignment@K / alignment_std@K.

And test/golden/ranking_masked.json: seen-item masking (maskSeen, default true). Random users
with ranked lists over 30 items (repeats included), train items and relevant items; each list
with the user's train items dropped (a repeat of a dropped item with it; a repeat of a kept item
keeps its slot and never earns), then by their definitions recall@K, precision@K (divided by K),
hit_rate@K, MRR and NDCG@K (binary gain, DCG / IDCG by their definitions), means over the
users with a relevant item; and the same metrics without masking (maskSeen: false).
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
    out = {"ks": KS, "users": users, "ndcg_linear": {}, "ndcg_exp": {}, "ndcg_binary": {},
           "ndcg_std": {"linear": {}, "exp": {}, "binary": {}}}
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
        out["ndcg_std"]["linear"][str(K)] = float(np.std(lin))
        out["ndcg_std"]["exp"][str(K)] = float(np.std(exp))
        out["ndcg_std"]["binary"][str(K)] = float(np.std(binr))
    with open(OUT, "w") as f:
        json.dump(out, f, indent=0)
    print(f"wrote {OUT}: {len(users)} users, K = {KS}")
    spread()
    masked()


def cos(a, b):
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def spread():
    out_path = os.path.join(ROOT, "test", "golden", "ranking_spread.json")
    rng = np.random.default_rng(20261128)
    n_items, dim, ks = 40, 5, [2, 5, 10]
    ids = [f"e{k:02d}" for k in range(n_items)]
    vec = {ids[i]: rng.normal(size=dim) for i in range(n_items) if rng.random() > 0.15}
    users, profiles = [], {}
    for u in range(60):
        L = int(rng.integers(1, 13))
        lst = [ids[i] for i in rng.permutation(n_items)[:L]]
        name = f"v{u:02d}"
        users.append({"user": name, "items": lst, "relevant": [lst[0]]})
        if rng.random() > 0.2:
            profiles[name] = rng.normal(size=dim)
    out = {"ks": ks, "users": users,
           "itemVectors": {k: v.tolist() for k, v in vec.items()},
           "userVectors": {k: v.tolist() for k, v in profiles.items()},
           "metrics": {}}
    for K in ks:
        div, ali = [], []
        for x in users:
            top = [it for it in x["items"][:K] if it in vec]
            if len(top) >= 2:
                sims = [cos(vec[a], vec[b]) for i, a in enumerate(top) for b in top[i + 1:]]
                div.append(1 - np.mean(sims))
            p = profiles.get(x["user"])
            if p is not None and top:
                ali.append(np.mean([cos(p, vec[it]) for it in top]))
        out["metrics"][f"diversity@{K}"] = float(np.mean(div))
        out["metrics"][f"diversity_std@{K}"] = float(np.std(div))
        out["metrics"][f"alignment@{K}"] = float(np.mean(ali))
        out["metrics"][f"alignment_std@{K}"] = float(np.std(ali))
    with open(out_path, "w") as f:
        json.dump(out, f, indent=0)
    print(f"wrote {out_path}: {len(users)} users, K = {ks}")





def list_metrics(lst, rel, ks):
    """recall, precision, hit rate at each K, MRR and NDCG (binary) of one list (repeats never earn)."""
    hits, seen = [], set()
    for it in lst:
        hits.append(1 if (it in rel and it not in seen) else 0)
        seen.add(it)
    out = {}
    for K in ks:
        h = sum(hits[:K])
        out[f"recall@{K}"] = h / len(rel)
        out[f"precision@{K}"] = h / K
        out[f"hit_rate@{K}"] = 1.0 if h > 0 else 0.0
        dcg = sum(g / np.log2(i + 2) for i, g in enumerate(hits[:K]))
        idcg = sum(1 / np.log2(i + 2) for i in range(min(len(rel), K)))
        out[f"ndcg@{K}"] = dcg / idcg
    first = next((i for i, g in enumerate(hits) if g), None)
    out["mrr"] = 0.0 if first is None else 1 / (first + 1)
    return out


def masked():
    out_path = os.path.join(ROOT, "test", "golden", "ranking_masked.json")
    rng = np.random.default_rng(20261129)
    ids = [f"m{k:02d}" for k in range(30)]
    ks = [1, 3, 5]
    users, train = [], []
    for u in range(50):
        name = f"w{u:02d}"
        L = int(rng.integers(1, 12))
        lst = [ids[i] for i in rng.integers(0, 30, size=L)]  # with repeats
        seen = sorted({ids[i] for i in rng.permutation(30)[: int(rng.integers(0, 8))]})
        rel = [ids[i] for i in rng.permutation(30)[: int(rng.integers(0, 5))]]
        users.append({"user": name, "items": lst, "relevant": rel})
        train += [[name, it] for it in seen]
    res = {"ks": ks, "users": users, "train": train, "masked": {}, "unmasked": {}}
    seen_of = {}
    for u, it in train:
        seen_of.setdefault(u, set()).add(it)
    for mode in ("masked", "unmasked"):
        per = []
        for x in users:
            if not x["relevant"]:
                continue
            lst = x["items"]
            if mode == "masked":
                lst = [it for it in lst if it not in seen_of.get(x["user"], set())]
            per.append(list_metrics(lst, set(x["relevant"]), ks))
        res[mode] = {k: float(np.mean([p[k] for p in per])) for k in per[0]}
    res["usersMasked"] = sum(1 for x in users if any(it in seen_of.get(x["user"], set()) for it in x["items"]))
    res["itemsMasked"] = sum(sum(1 for it in x["items"] if it in seen_of.get(x["user"], set())) for x in users)
    with open(out_path, "w") as f:
        json.dump(res, f, indent=0)
    print(f"wrote {out_path}: {len(users)} users, K = {ks}")


if __name__ == "__main__":
    main()
