#!/usr/bin/python3
"""Reads a partial file of `eval-lens partial` with NumPy alone (numpy.load, no Eval Lens code) and
prints, as JSON, what NumPy finds in it: the meta, every array's dtype and shape, the sums, and
checks of the sums against the sorted run. Run with Debian's python3-numpy:

    /usr/bin/python3 scripts/golden/partial.py PART.npz > test/golden/partial.json

test/golden/partial.json is this script's output for the partial file of the first 120 data rows
of examples/digits-lt/logreg.csv, its `split` column removed, with the config
{"task": "classification", "classes": [0, ..., 9], "topK": [2, 3], "eceBins": 10}
(test/unit/core/partial/partial.golden.test.ts makes that file again and compares; it also runs
this script on it when /usr/bin/python3 has NumPy).
"""
import json
import sys

import numpy as np

path = sys.argv[1]
with np.load(path, allow_pickle=False) as z:
    arrays = {name: z[name] for name in z.files}

meta = json.loads(arrays["meta"].tobytes().decode("utf-8"))
n = meta["rows"]
C = len(meta["classes"])
key = arrays["run/key"]
cls = arrays["run/class"]
pred = arrays["run/pred"]
score = arrays["run/score"]
w = arrays["run/weight"] if "run/weight" in arrays else np.ones(n)

# The sums again from the run, with NumPy: a weighted count per class (bincount) and per cell.
support = np.bincount(cls, weights=w, minlength=C)
predicted = np.bincount(pred, weights=w, minlength=C)
correct = np.bincount(cls[cls == pred], weights=w[cls == pred], minlength=C)
confusion = np.zeros((C, C))
np.add.at(confusion, (cls, pred), w)
rank_hist = np.bincount(arrays["run/rank"], weights=w, minlength=C + 1)
# Σ w·nll in row order (the run's key order), as the file's sum was made
order = np.argsort(key, kind="stable")
nll_in_row_order = 0.0
for i in order:
    nll_in_row_order += float(w[i]) * float(arrays["run/nll"][i])

out = {
    "meta": {k: meta[k] for k in ("format", "version", "task", "rows", "classes", "shard", "bootstrap")},
    "arrays": {
        name: {"dtype": a.dtype.str, "shape": list(a.shape)} for name, a in sorted(arrays.items()) if name != "meta"
    },
    "sums": {
        "total": float(arrays["sum/total"]),
        "rows": int(arrays["sum/rows"]),
        "support": arrays["sum/support"].tolist(),
        "correct": arrays["sum/correct"].tolist(),
        "rank_hist": arrays["sum/rank_hist"].tolist(),
        "nll": float(arrays["sum/nll"]),
        "brier": float(arrays["sum/brier"]),
        "confusion_total": float(arrays["sum/confusion"].sum()),
    },
    "checks": {
        "run_sorted_descending": bool(np.all(np.diff(score) <= 0)),
        "key_is_permutation": bool(np.array_equal(np.sort(key), np.arange(n))),
        "support_from_run": bool(np.array_equal(support, arrays["sum/support"])),
        "predicted_from_run": bool(np.array_equal(predicted, arrays["sum/predicted"])),
        "correct_from_run": bool(np.array_equal(correct, arrays["sum/correct"])),
        "confusion_from_run": bool(np.array_equal(confusion, arrays["sum/confusion"])),
        "rank_hist_from_run": bool(np.array_equal(rank_hist, arrays["sum/rank_hist"])),
        "nll_from_run_in_row_order": nll_in_row_order == float(arrays["sum/nll"]),
        "accuracy": float(np.trace(arrays["sum/confusion"]) / arrays["sum/total"]),
    },
}
json.dump(out, sys.stdout, indent=1)
sys.stdout.write("\n")
