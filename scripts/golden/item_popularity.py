#!/usr/bin/python3
"""Golden values for item popularity from a column of the item table (`itemPopularity`,
docs/metrics/ranking.md, "Popularity from the item table"), with numpy.

Run:  /usr/bin/python3 scripts/golden/item_popularity.py

Writes test/golden/item_popularity.json: the inputs (a run of ranked lists with relevant items, a
train file and an item table `item,units` whose `units` column is the popularity: some cells
empty, some 0, some items of the table in no other file, some recommended items without a row)
and, by the definitions:
  * novelty@K of the run: per user, the mean over its top-K items with units > 0 of
    -log2(units_i / S), S = the sum of the column over every row of the table (empty cells add
    nothing); users with no such item are left out; the mean over the other users;
  * the popularity baseline: the items that occur in train ordered by units descending (no value
    = 0), ties by item id (string order); each user gets the first K_max of them that are not
    among the user's train items; its novelty@K and recall@K (hits in the top K / |R_u|), means
    over the users with a relevant item.
"""
import json
import os

import numpy as np

rng = np.random.default_rng(20261128)
KS = [1, 3, 5]
items = [f"i{n:02d}" for n in range(25)]
extra = [f"x{n}" for n in range(4)]  # rows of the table that no other file names

# Units: 3 decimals as written; i20..i21 empty cells, i22 and i23 0, i24 no row at all.
units = {}
for it in items[:20] + extra:
    units[it] = round(float(rng.uniform(0.5, 500.0)), 3)
users = [f"u{n:02d}" for n in range(15)]
lists, relevant, train = {}, {}, {}
for n, u in enumerate(users):
    length = 8 if n == 0 else int(rng.integers(1, 8))
    lists[u] = [str(x) for x in rng.choice(items, size=length, replace=False)]
    relevant[u] = [str(x) for x in rng.choice(items, size=int(rng.integers(1, 4)), replace=False)]
    train[u] = [str(x) for x in rng.choice(items[:22], size=int(rng.integers(0, 6)), replace=False)]
# run lists never hold the user's train items (nothing to mask)
for u in users:
    lists[u] = [it for it in lists[u] if it not in train[u]] or [next(it for it in items if it not in train[u])]
# a tie between the two train items of the most units (the larger id copies the smaller's value),
# to exercise the id order of the baseline
top = sorted({it for u in users for it in train[u] if it in units}, key=lambda it: -units[it])[:2]
units[max(top)] = units[min(top)]
# and a user who has not seen either, with only the larger id relevant: recall@1 of the baseline
# then depends on the tie order (the smaller id first: a miss)
tie_user = next(u for u in users if not set(top) & set(train[u]))
relevant[tie_user] = [max(top)]
table_rows = []
for it in items[:24] + extra:
    if it in ("i20", "i21"):
        table_rows.append((it, ""))
    elif it in ("i22", "i23"):
        table_rows.append((it, "0"))
    else:
        table_rows.append((it, repr(units[it])))
value = {it: (float(t) if t != "" else 0.0) for it, t in table_rows}
S = 0.0
for _, t in table_rows:  # in file order, as Eval Lens sums
    if t != "":
        S += float(t)

max_k = max(KS)


def novelty(lists_of, k):
    per_user = []
    for u in users:
        s = [-np.log2(value[it] / S) for it in lists_of[u][:k] if value.get(it, 0.0) > 0]
        if s:
            per_user.append(np.mean(s))
    return float(np.mean(per_user)) if per_user else None


def recall(lists_of, k):
    return float(np.mean([len(set(lists_of[u][:k]) & set(relevant[u])) / len(relevant[u]) for u in users]))


pool = sorted({it for u in users for it in train[u]})
order = sorted(pool, key=lambda it: (-value.get(it, 0.0), it))
depth = min(max_k, max(len(l) for l in lists.values()))
baseline = {u: [it for it in order if it not in train[u]][:depth] for u in users}

out = {
    "ks": KS,
    "itemsCsv": "item,units\n" + "".join(f"{it},{t}\n" for it, t in table_rows),
    "trainCsv": "user,item\n" + "".join(f"{u},{it}\n" for u in users for it in train[u]),
    "runJsonl": "".join(
        json.dumps({"user": u, "items": lists[u], "relevant": {it: 1 for it in relevant[u]}}) + "\n" for u in users
    ),
    "total": S,
    "order": order,
    "baselineLists": baseline,
    "novelty": {str(k): novelty(lists, k) for k in KS},
    "baselineNovelty": {str(k): novelty(baseline, k) for k in KS},
    "baselineRecall": {str(k): recall(baseline, k) for k in KS},
}
path = os.path.join(os.path.dirname(__file__), "..", "..", "test", "golden", "item_popularity.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print("wrote", os.path.normpath(path))
