#!/usr/bin/python3
"""Make the ranking example from real co-occurrence data: the dependency graph of Debian 12
("bookworm") Python packages, as recorded in the Debian archive's package index on this machine.

  /usr/bin/python3 examples/ranking-debian-deps/_make_example.py

Data: the `Packages` index of bookworm/main/amd64 kept by apt under /var/lib/apt/lists (read
through `apt-helper cat-file`, which decompresses it; nothing is downloaded). Every binary package
of Section `python` with at least 6 distinct dependencies is a "user"; its dependencies
(Depends + Pre-Depends, first alternative of each `a | b`, version and architecture qualifiers
dropped) are the items it "interacted with".

Split: per user, a seeded 20% of its dependencies (at least 1) are held out as the relevant items;
the rest are train interactions (`_train.csv`).

Two recommenders, fitted on `_train.csv` only, each give every user a top-20 list with the user's
train items excluded:
  popularity.jsonl     the most frequent train items (count desc, name asc on ties) — the same
                       rule as Eval Lens's built-in popularity baseline, so its metrics must equal
                       `baselines.popularity` (a check of both);
  cooccurrence.jsonl   item-item collaborative filtering: score(u, j) = sum over the user's train
                       items i of cos(i, j), the cosine between the item columns of the binary
                       user x item train matrix; ties by name.
Item metadata for the user inspector: `items.csv` (item, section, priority, description: the
dependency's own stanza in the same index; dependencies without one have no row).
Item embeddings for diversity/alignment: `_item_embeddings.npy` (float32, 16 dims: the left
singular vectors x singular values of the item x user train matrix) with `_item_embeddings.ids.txt`.

Deterministic: fixed seed, sorted inputs, stable tie-breaking. Prints the index file's SHA-256 and
the counts, so a later run on a different index can be told apart.
"""
import csv
import glob
import hashlib
import json
import os
import re
import subprocess
from collections import Counter

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
# apt's local index of bookworm's main amd64 packages (written by `apt-get update`; the file name
# starts with the mirror's name, so it is found by its suffix).
INDEX = next(iter(sorted(glob.glob("/var/lib/apt/lists/*_dists_bookworm_main_binary-amd64_Packages*"))), None)
TOP = 20
SEED = 5


def packages(text):
    cur = {}
    for line in text.splitlines():
        if not line.strip():
            if cur:
                yield cur
                cur = {}
            continue
        if line[0] in " \t":
            continue
        k, _, v = line.partition(":")
        cur[k] = v.strip()
    if cur:
        yield cur


def deps_of(p):
    out = []
    for field in ("Pre-Depends", "Depends"):
        for alt in p.get(field, "").split(","):
            a = alt.split("|")[0].strip()
            a = re.sub(r"\s*\(.*?\)", "", a)
            a = re.sub(r"\s*\[.*?\]", "", a)
            a = a.split(":")[0].strip()
            if a:
                out.append(a)
    return list(dict.fromkeys(out))


def main():
    if INDEX is None:
        raise SystemExit("No apt index for bookworm main amd64 in /var/lib/apt/lists: run `apt-get update` first.")
    raw = open(INDEX, "rb").read()
    print(f"index {INDEX}\nsha256 {hashlib.sha256(raw).hexdigest()}")
    text = subprocess.run(["/usr/lib/apt/apt-helper", "cat-file", INDEX], check=True,
                          capture_output=True, text=True).stdout
    users = {}
    meta = {}
    for p in packages(text):
        meta.setdefault(p["Package"], p)
        if p.get("Section") != "python":
            continue
        d = deps_of(p)
        if len(d) >= 6:
            users[p["Package"]] = sorted(d)
    names = sorted(users)
    rng = np.random.default_rng(SEED)
    train, test = {}, {}
    for u in names:
        d = users[u]
        n_test = max(1, int(round(0.2 * len(d))))
        perm = rng.permutation(len(d))
        test[u] = sorted(d[i] for i in perm[:n_test])
        train[u] = sorted(d[i] for i in perm[n_test:])

    items = sorted({i for u in names for i in train[u]})
    idx = {it: k for k, it in enumerate(items)}
    X = np.zeros((len(names), len(items)))
    for r, u in enumerate(names):
        for it in train[u]:
            X[r, idx[it]] = 1.0

    # popularity (count desc, name asc)
    count = Counter(i for u in names for i in train[u])
    pop_order = sorted(count, key=lambda i: (-count[i], i))

    # item-item cosine co-occurrence
    norms = np.sqrt(X.sum(axis=0))
    C = (X.T @ X) / np.outer(norms, norms)
    np.fill_diagonal(C, 0.0)

    def top_by_score(scores, seen):
        order = sorted(range(len(items)), key=lambda k: (-round(scores[k], 12), items[k]))
        return [items[k] for k in order if items[k] not in seen and scores[k] > 0][:TOP]

    with open(os.path.join(HERE, "popularity.jsonl"), "w") as fp, \
            open(os.path.join(HERE, "cooccurrence.jsonl"), "w") as fc:
        for r, u in enumerate(names):
            seen = set(train[u])
            pop = [i for i in pop_order if i not in seen][:TOP]
            co = top_by_score(X[r] @ C, seen)
            if len(co) < TOP:  # back-fill with popularity, as such recommenders do
                co += [i for i in pop_order if i not in seen and i not in co][:TOP - len(co)]
            for f, lst in ((fp, pop), (fc, co)):
                f.write(json.dumps({"user": u, "items": lst, "relevant": test[u]},
                                   separators=(",", ":"), ensure_ascii=False) + "\n")

    with open(os.path.join(HERE, "_train.csv"), "w") as f:
        f.write("user,item\n")
        for u in names:
            for it in train[u]:
                f.write(f"{u},{it}\n")

    U, S, _ = np.linalg.svd(X.T, full_matrices=False)
    emb = (U[:, :16] * S[:16]).astype("<f4")
    # fix the sign of each component (SVD signs are arbitrary): largest |value| positive
    for c in range(emb.shape[1]):
        if emb[np.argmax(np.abs(emb[:, c])), c] < 0:
            emb[:, c] *= -1
    np.save(os.path.join(HERE, "_item_embeddings.npy"), emb)
    with open(os.path.join(HERE, "_item_embeddings.ids.txt"), "w") as f:
        f.write("\n".join(items) + "\n")

    # item metadata for the user inspector: each dependency's Section, Priority and one-line
    # Description from the same index; a dependency with no stanza of its own (a virtual package
    # such as python3:any's providers) has no row
    all_items = sorted({i for u in names for i in users[u]})
    with open(os.path.join(HERE, "items.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["item", "section", "priority", "description"])
        for it in all_items:
            p = meta.get(it)
            if p is not None:
                w.writerow([it, p.get("Section", ""), p.get("Priority", ""), p.get("Description", "")])

    cfg = {"task": "ranking", "k": [5, 10, 20], "train": "_train.csv", "items": "items.csv",
           "itemEmbeddings": "_item_embeddings.npy", "coldThreshold": 5,
           "mapNormaliser": "min", "gain": "linear", "bootstrap": {"n": 1000, "seed": 0}}
    with open(os.path.join(HERE, "eval-lens.json"), "w") as f:
        json.dump(cfg, f, indent=2)
        f.write("\n")
    n_train = sum(len(train[u]) for u in names)
    n_test = sum(len(test[u]) for u in names)
    print(f"users {len(names)}, train items {len(items)}, train rows {n_train}, held out {n_test}")
    for fn in sorted(os.listdir(HERE)):
        print(f"  {fn}: {os.path.getsize(os.path.join(HERE, fn))} bytes")


if __name__ == "__main__":
    main()
