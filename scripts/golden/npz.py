#!/usr/bin/python3
"""Writes the NumPy test files of test/fixtures/npz/ from examples/digits-lt/logreg.csv, with
Debian's python3-numpy (run with /usr/bin/python3 from the repository root):

    /usr/bin/python3 scripts/golden/npz.py

Files (the same rows as the CSV; the golden test compares their metrics with the CSV's):
- digits-logreg.npz: np.savez (stored members): id, y_true, pred int64, split <U4, probs float64 (n, 10).
- digits-logreg-compressed.npz: np.savez_compressed (deflate), labels int32, probs float64 in
  Fortran order, split as fixed-width text (<U4).
- digits-logreg-f32.npz: probs as float32 (not identical metrics: float32 rounding), big-endian int labels.
- bad-dtype.npz: probs as complex128 (an error naming the array and its dtype).
- ragged.npz: y_true with one row fewer than probs.
- no-labels.npz: probs only.
- bad-value.npz: 5 rows, NaN in probs on data row 2 (an error naming "row 2").
- not-a-zip.npz: text bytes.
- big-int-labels.npz: 10 rows, y_true and pred int64 of 2**53 and 2**53 + 1 (8 predicted right), and
  label_u64 / pred_u64 uint64 of 2**64 - 1 and 2**64 - 2 (the same pattern): accuracy 0.8 each, never
  rounded into one class.
"""
import csv
import os

import numpy as np

root = os.getcwd()
out = os.path.join(root, "test", "fixtures", "npz")
os.makedirs(out, exist_ok=True)
with open(os.path.join(root, "examples", "digits-lt", "logreg.csv"), newline="") as f:
    rows = list(csv.DictReader(f))
ids = np.array([int(r["id"]) for r in rows], dtype=np.int64)
y = np.array([int(r["label"]) for r in rows], dtype=np.int64)
pred = np.array([int(r["pred"]) for r in rows], dtype=np.int64)
split = np.array([r["split"] for r in rows])
# float() of the CSV text: the correctly rounded double, as the CSV reader reads it.
probs = np.array([[float(r[f"prob_{c}"]) for c in range(10)] for r in rows], dtype=np.float64)

np.savez(os.path.join(out, "digits-logreg.npz"), id=ids, y_true=y, pred=pred, split=split, probs=probs)
np.savez_compressed(
    os.path.join(out, "digits-logreg-compressed.npz"),
    id=ids,
    labels=y.astype(np.int32),
    pred=pred.astype(np.int16),
    split=split,
    probs=np.asfortranarray(probs),
)
assert np.asfortranarray(probs).flags.f_contiguous
np.savez(os.path.join(out, "digits-logreg-f32.npz"), y_true=y.astype(">i8"), probs=probs.astype(np.float32))
np.savez(os.path.join(out, "bad-dtype.npz"), y_true=y[:5], probs=probs[:5].astype(np.complex128))
np.savez(os.path.join(out, "ragged.npz"), y_true=y[:4], probs=probs[:5])
np.savez(os.path.join(out, "no-labels.npz"), probs=probs[:5])
bad = probs[:5].copy()
bad[1, 4] = np.nan
np.savez(os.path.join(out, "bad-value.npz"), y_true=y[:5], probs=bad)
big_y = np.array([i % 2 for i in range(10)], dtype=np.int64)
big_p = np.array([i % 2 if i < 8 else 1 - i % 2 for i in range(10)], dtype=np.int64)
np.savez(
    os.path.join(out, "big-int-labels.npz"),
    y_true=2**53 + big_y,
    pred=2**53 + big_p,
    label_u64=(np.uint64(2**64 - 1) - big_y.astype(np.uint64)),
    pred_u64=(np.uint64(2**64 - 1) - big_p.astype(np.uint64)),
)
with open(os.path.join(out, "not-a-zip.npz"), "w") as f:
    f.write("y_true,probs\n")
print("wrote", out)
