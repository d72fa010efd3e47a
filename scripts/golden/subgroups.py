#!/usr/bin/python3
"""Golden values for the worst-group error over a per-row attribute (`subgroupColumn`), computed
with a pandas groupby.

Run with Debian's python3 (python3-pandas): `/usr/bin/python3 scripts/golden/subgroups.py`.
Writes test/golden/subgroups.csv — examples/digits-lt/logreg.csv with two more columns, `group`
(north/south/east/west from the row's id) and `w` (a weight, 1–4 from the id; named so that it is a weight only when `columns.weight` says so) — and
test/golden/subgroups.json: per group the row count, the unweighted and the weighted error rate
(Σ w·1[pred ≠ label] / Σ w), and the worst of each, as in Sagawa et al., "Distributionally Robust
Neural Networks for Group Shifts", ICLR 2020 (https://arxiv.org/abs/1911.08731).
"""
import json
import os

import pandas as pd

root = os.path.join(os.path.dirname(__file__), "..", "..")
src = os.path.join(root, "examples", "digits-lt", "logreg.csv")
df = pd.read_csv(src, dtype={"id": str})
ids = df["id"].astype(int)
df["group"] = ids.map(lambda i: ["north", "south", "east", "west"][(i * 7) % 4])
df["w"] = 1 + (ids // 5) % 4
out_csv = os.path.join(root, "test", "golden", "subgroups.csv")
df.to_csv(out_csv, index=False)

df["wrong"] = (df["pred"] != df["label"]).astype(float)
df["w_wrong"] = df["wrong"] * df["w"]
g = df.groupby("group", sort=False)
rows = g.size()
plain = g["wrong"].mean()
weighted = g["w_wrong"].sum() / g["w"].sum()
result = {
    "rows": {k: int(v) for k, v in rows.items()},
    "error": {k: float(v) for k, v in plain.items()},
    "worst": float(plain.max()),
    "worstGroup": str(plain.idxmax()),
    "weightedError": {k: float(v) for k, v in weighted.items()},
    "weightedWorst": float(weighted.max()),
}
with open(os.path.join(root, "test", "golden", "subgroups.json"), "w") as f:
    json.dump(result, f, indent=2)
    f.write("\n")
print(json.dumps(result, indent=2))
