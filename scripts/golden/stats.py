#!/usr/bin/python3
"""Golden values for the paired tests and effect sizes of src/core/stats/tests.ts.

Run with Debian's python3 (scipy 1.10): `/usr/bin/python3 scripts/golden/stats.py`.
Writes test/golden/stats.json.

- Paired t-test: scipy.stats.ttest_rel(a, b) (two-sided) and alternative='greater' (one-sided, a > b).
- Wilcoxon signed-rank: scipy.stats.wilcoxon(a, b) with scipy's defaults (zero_method='wilcox',
  correction=False, method='auto'). In scipy 1.10, method='auto' is the normal approximation when
  n > 50 or when any difference is zero, and the exact distribution otherwise. Eval Lens always uses
  the normal approximation with the tie correction, so each case also records
  wilcoxon(..., method='approx') and the mode that 'auto' picked; the tests compare with 'approx',
  and, where 'auto' picked the approximation, check that both agree.
- Cohen's d_z = mean(d) / sd(d, ddof=1); pooled d = (mean_a - mean_b) / sqrt((var_a + var_b) / 2),
  variances with ddof=1 (numpy).
"""
import json
import math
import os
import warnings

import numpy as np
from scipy import stats

rng = np.random.default_rng(20240601)


def num(x):
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


def case(name, a, b, note):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    d = a - b
    out = {"name": name, "note": note, "a": a.tolist(), "b": b.tolist(), "n": int(len(a))}
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t2 = stats.ttest_rel(a, b)
        t1 = stats.ttest_rel(a, b, alternative="greater")
        out["t"] = num(t2.statistic)
        out["p_t"] = num(t2.pvalue)
        out["p_t_one_sided"] = num(t1.pvalue)
        n_zero = int(np.sum(d == 0))
        out["n_zero"] = n_zero
        if n_zero == len(d):
            out["wilcoxon"] = None
            out["p_wilcoxon"] = None
            out["wilcoxon_note"] = "scipy raises ValueError: all differences are zero"
        else:
            w_auto = stats.wilcoxon(a, b)
            w_approx = stats.wilcoxon(a, b, method="approx")
            auto_mode = "approx" if (len(d) > 50 or n_zero > 0) else "exact"
            out["wilcoxon"] = num(w_approx.statistic)
            out["p_wilcoxon"] = num(w_approx.pvalue)
            out["wilcoxon_auto_mode"] = auto_mode
            out["wilcoxon_auto"] = num(w_auto.statistic)
            out["p_wilcoxon_auto"] = num(w_auto.pvalue)
        if len(a) >= 2:
            sd = np.std(d, ddof=1)
            out["d_z"] = num(np.mean(d) / sd)
            out["d_pooled"] = num((np.mean(a) - np.mean(b)) / math.sqrt((np.var(a, ddof=1) + np.var(b, ddof=1)) / 2))
        else:
            out["d_z"] = "NaN"
            out["d_pooled"] = "NaN"
    return out


cases = []
a = rng.normal(0.7, 0.1, 8)
b = a - rng.normal(0.05, 0.04, 8)
cases.append(case("small-continuous", a, b, "n=8, no zeros, no ties: scipy auto uses the exact test here"))

a = np.round(rng.normal(3, 1, 60), 1)
b = np.round(a - rng.normal(0.2, 0.6, 60), 1)
b[:5] = a[:5]
cases.append(case("n60-ties-zeros", a, b, "n=60, values rounded to 0.1 so |d| ties, 5 zero differences"))

ya = (rng.random(200) < 0.78).astype(float)
yb = (rng.random(200) < 0.72).astype(float)
cases.append(case("n200-correctness", ya, yb, "0/1 correctness of two classifiers: only -1, 0, +1 differences"))

a = rng.integers(0, 6, 30).astype(float)
b = rng.integers(0, 6, 30).astype(float)
cases.append(case("n30-integers-zeros", a, b, "n=30 integer scores with zero differences: scipy auto switches to approx"))

users = 80
a = np.where(rng.random(users) < 0.3, 0.0, np.round(rng.random(users), 2))
b = np.where(rng.random(users) < 0.4, 0.0, np.round(rng.random(users) * 0.9, 2))
cases.append(case("n80-per-user-ndcg", a, b, "per-user ranking values with many zeros on both sides"))

a = np.round(rng.normal(0.5, 0.2, 55), 2)
b = np.round(a + rng.normal(-0.03, 0.05, 55), 2)
cases.append(case("n55-small-diffs", a, b, "n=55, two-decimal values, small differences with ties and zeros"))

cases.append(case("constant-nonzero-diff", [1, 2, 3, 4], [0, 1, 2, 3], "every difference is +1: sd(d)=0, t=+inf, p=0"))
cases.append(case("constant-negative-diff", [0, 1, 2, 3], [0.5, 1.5, 2.5, 3.5], "every difference is -0.5: t=-inf"))
cases.append(case("all-zero-diff", [1, 0, 1, 1], [1, 0, 1, 1], "identical runs: t=NaN, p=NaN, wilcoxon undefined"))
cases.append(case("n1", [0.7], [0.4], "n=1: t and p undefined (NaN)"))
cases.append(case("n2", [0.7, 0.2], [0.4, 0.1], "n=2: df=1"))

# Paired comparisons of real runs, per-item metric by per-item metric: the per-row values are
# computed here from the prediction files (independently of Eval Lens), then tested with scipy.
# Per-row values: accuracy = 1[pred = label]; top<k>_accuracy = 1[rank <= k] with rank = 1 + the
# number of classes whose probability is strictly higher than the true class's; nll =
# -ln max(p_true, 1e-15); brier = sum_c (p_c - 1[label = c])^2. Holm (1979) over each metric's
# tests, one per run against the baseline, adjusting the two-sided t-test p-value.
def read_run(path):
    import csv
    with open(path) as f:
        rows = list(csv.DictReader(f))
    classes = [c[len("prob_"):] for c in rows[0].keys() if c.startswith("prob_")]
    ids = [r["id"] for r in rows]
    label = np.array([classes.index(r["label"]) for r in rows])
    pred = np.array([classes.index(r["pred"]) for r in rows])
    prob = np.array([[float(r["prob_" + c]) for c in classes] for r in rows])
    order = np.argsort(np.array(ids, dtype=int), kind="stable")
    return np.array(ids)[order], label[order], pred[order], prob[order]


def per_row(label, pred, prob, ks):
    n = len(label)
    p_true = prob[np.arange(n), label]
    rank = 1 + np.sum(prob > p_true[:, None], axis=1)
    onehot = np.zeros_like(prob)
    onehot[np.arange(n), label] = 1
    out = {"accuracy": (pred == label).astype(float)}
    for k in ks:
        out["top%d_accuracy" % k] = (rank <= k).astype(float)
    out["nll"] = -np.log(np.maximum(p_true, 1e-15))
    out["brier"] = np.sum((prob - onehot) ** 2, axis=1)
    return out


def holm(ps):
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    adj = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        adj[i] = running
    return adj


root = os.path.join(os.path.dirname(__file__), "..", "..")
folder = os.path.join(root, "examples", "digits-lt")
run_names = ["logreg.csv", "knn.csv", "random_forest.csv"]
loaded = {r: read_run(os.path.join(folder, r)) for r in run_names}
values = {r: per_row(l, p, pr, [2, 3]) for r, (_, l, p, pr) in loaded.items()}
comparison = []
for metric in ["accuracy", "top2_accuracy", "top3_accuracy", "nll", "brier"]:
    entries = []
    for run in run_names[1:]:
        e = case(run + " vs logreg.csv: " + metric, values[run][metric], values["logreg.csv"][metric], "digits-lt, paired by id")
        e.pop("a")
        e.pop("b")
        e.update({"run": run, "baseline": "logreg.csv", "metric": metric,
                  "mean": float(np.mean(values[run][metric])), "mean_baseline": float(np.mean(values["logreg.csv"][metric]))})
        entries.append(e)
    for e, adj in zip(entries, holm([e["p_t"] for e in entries])):
        e["p_holm"] = adj
    comparison.extend(entries)

out = {
    "generator": "scripts/golden/stats.py",
    "comparison": {"folder": "examples/digits-lt", "runs": run_names, "baseline": "logreg.csv", "tests": comparison},
    "scipy": __import__("scipy").__version__,
    "numpy": np.__version__,
    "cases": cases,
}
path = os.path.join(os.path.dirname(__file__), "..", "..", "test", "golden", "stats.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print("wrote", os.path.normpath(path), len(cases), "cases")
