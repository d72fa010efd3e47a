#!/usr/bin/python3
"""Make the classification example runs in examples/digits-lt, examples/cifar100-lt-like and
examples/selective-protocol.

Real predictions of real scikit-learn models, trained on long-tailed splits:

* digits-lt: scikit-learn's bundled digits images (load_digits, 10 classes, no download), a
  long-tailed train split (imbalance ratio 50) and a balanced held-out set cut into val/test rows.
* cifar100-lt-like: a synthetic 100-class problem from make_classification with the train counts
  of CIFAR-100-LT at imbalance factor 100 (500 -> 5, 10,847 rows) and a balanced test set of 20
  rows per class. It is NOT CIFAR: no image data is involved.
* selective-protocol: digits again, a long-tailed train split at imbalance ratio 100 in class
  order (100 -> 1) and a balanced held-out set of 40 images per class, split into `tunev`
  (validation) and `test` rows; a plain and a class-balanced logistic regression.

Run with Debian's Python (it has scikit-learn 1.2.1):  /usr/bin/python3 examples/make_classification_examples.py
No arguments; writes into the folders beside this script; deterministic (fixed seeds, one BLAS
thread), so two runs give byte-identical files.
"""

import os

# One BLAS/OpenMP thread: repeatable floating-point sums, and polite on a shared machine.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import json  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from sklearn.datasets import load_digits, make_classification  # noqa: E402
from sklearn.ensemble import RandomForestClassifier  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import balanced_accuracy_score  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import SVC  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SIG = "%.6g"  # 6 significant digits for every written score


def round6(a):
    """Round to 6 significant digits exactly as the files will hold them (text round trip)."""
    return np.vectorize(lambda v: float(SIG % v))(np.asarray(a, dtype=float))


def checked_scores(raw, name):
    """Round the scores; check that the arg-max (first maximum) of every row survives rounding."""
    rounded = round6(raw)
    changed = int(np.sum(np.argmax(rounded, axis=1) != np.argmax(raw, axis=1)))
    if changed:
        raise SystemExit(f"{name}: rounding to 6 significant digits changes the arg-max of {changed} rows")
    return rounded


def write_csv(path, front, scores, prefix):
    """front: ordered dict of leading columns; scores: (n, C) already rounded; prefix: prob_/logit_."""
    df = pd.DataFrame(front)
    score_cols = pd.DataFrame(scores, columns=[f"{prefix}{c}" for c in range(scores.shape[1])])
    df = pd.concat([df, score_cols], axis=1)
    df.to_csv(path, index=False, float_format=SIG, lineterminator="\n")
    return path


def write_jsonl(path, front, scores, key):
    keys = list(front.keys())
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for i in range(scores.shape[0]):
            row = {k: _plain(front[k][i]) for k in keys}
            row[key] = [float(v) for v in scores[i]]
            f.write(json.dumps(row, separators=(",", ":")) + "\n")
    return path


def _plain(v):
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return float(v)
    return v


def write_json(path, obj):
    """One key a line for objects, arrays of numbers kept on one line (readable and diff-friendly)."""
    if isinstance(obj, dict):
        body = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v, separators=(', ', ': '))}" for k, v in obj.items())
        text = "{\n" + body + "\n}\n"
    else:
        text = json.dumps(obj, separators=(", ", ": ")) + "\n"
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return path


def report(path, model_name, y, pred):
    acc = float(np.mean(pred == y))
    bal = float(balanced_accuracy_score(y, pred))
    size = os.path.getsize(path)
    print(f"  {os.path.relpath(path, HERE):45s} {size:>9,d} B  {model_name:28s} acc={acc:.4f} bal_acc={bal:.4f}")


# --------------------------------------------------------------------------------------------
# digits-lt
# --------------------------------------------------------------------------------------------
DIGITS_SEED = 20240
DIGITS_HELDOUT_PER_CLASS = 30  # 15 val + 15 test per class
DIGITS_NMAX = 144  # the smallest digit class has 174 images: 174 - 30 = 144 left for train
DIGITS_RATIO = 50


def make_digits():
    out = os.path.join(HERE, "digits-lt")
    os.makedirs(out, exist_ok=True)
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    C = 10
    rng = np.random.default_rng(DIGITS_SEED)
    # Which class is the head: a seeded order, so train rank != class index (exercises ranking).
    order = rng.permutation(C)  # order[r] = class with train rank r+1
    rank_counts = [int(round(DIGITS_NMAX * DIGITS_RATIO ** (-r / (C - 1)))) for r in range(C)]
    train_counts = [0] * C
    for r, c in enumerate(order):
        train_counts[int(c)] = rank_counts[r]

    train_idx, val_idx, test_idx = [], [], []
    for c in range(C):
        idx = rng.permutation(np.flatnonzero(y == c))
        half = DIGITS_HELDOUT_PER_CLASS // 2
        val_idx += list(idx[:half])
        test_idx += list(idx[half:DIGITS_HELDOUT_PER_CLASS])
        train_idx += list(idx[DIGITS_HELDOUT_PER_CLASS:DIGITS_HELDOUT_PER_CLASS + train_counts[c]])
        assert len(idx) - DIGITS_HELDOUT_PER_CLASS >= train_counts[c]
    train_idx = np.array(sorted(train_idx))
    held = np.array(val_idx + test_idx)
    split = np.array(["val"] * len(val_idx) + ["test"] * len(test_idx))
    perm = rng.permutation(len(held))  # interleave val and test rows, like a real dump
    held, split = held[perm], split[perm]
    assert np.bincount(y[train_idx], minlength=C).tolist() == train_counts

    models = [
        ("logreg", "logistic regression", make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=2000))),
        ("random_forest", "random forest (200 trees)", RandomForestClassifier(n_estimators=200, random_state=DIGITS_SEED, n_jobs=1)),
        ("svc_rbf", "RBF SVC (Platt probabilities)", SVC(kernel="rbf", C=3.0, gamma="scale", probability=True, random_state=DIGITS_SEED)),
        ("gaussian_nb", "Gaussian naive Bayes", GaussianNB()),
        ("knn", "k-NN (k=10)", KNeighborsClassifier(n_neighbors=10)),
    ]
    print(f"digits-lt: train {len(train_idx)} rows, counts by class {train_counts}; held-out {len(held)} rows "
          f"({int(np.sum(split == 'val'))} val, {int(np.sum(split == 'test'))} test)")
    yh = y[held]
    for key, name, model in models:
        model.fit(X[train_idx], y[train_idx])
        probs = checked_scores(model.predict_proba(X[held]), key)
        pred = np.argmax(probs, axis=1)
        front = {"id": held, "label": yh, "pred": pred, "split": split}
        report(write_csv(os.path.join(out, f"{key}.csv"), front, probs, "prob_"), name, yh, pred)
        if key == "svc_rbf":
            disagree = int(np.sum(model.predict(X[held]) != pred))
            print(f"    (SVC.predict, by one-vs-one votes, differs from the probability arg-max on {disagree} rows;"
                  " the file's pred is the arg-max)")
        if key == "logreg":
            # Same model, two more encodings: logits (its decision_function) and JSONL with an array column.
            logits = checked_scores(model.decision_function(X[held]), key + " logits")
            if not np.array_equal(np.argmax(logits, axis=1), pred):
                raise SystemExit("logreg: logits and probabilities disagree on the arg-max")
            report(write_csv(os.path.join(out, "logreg_logits.csv"), front, logits, "logit_"), name + " (logits)", yh, pred)
            report(write_jsonl(os.path.join(out, "logreg.jsonl"), front, probs, "probs"), name + " (JSONL)", yh, pred)

    config = {
        "task": "classification",
        "classes": list(range(C)),
        "trainCounts": train_counts,
        "shotThresholds": {"many": 50, "few": 20},
        "groups": [6],
        "groupNames": ["head", "tail"],
        "imbalanceRatio": DIGITS_RATIO,
        "T": 10,
        "targetCoverage": 0.8,
        "topK": [2, 3],
        "eceBins": 10,
    }
    write_json(os.path.join(out, "eval-lens.json"), config)
    print("  digits-lt/eval-lens.json")


# --------------------------------------------------------------------------------------------
# selective-protocol
# --------------------------------------------------------------------------------------------
SEL_SEED = 7
SEL_HELDOUT_PER_CLASS = 40  # 20 tunev + 20 test per class
SEL_NMAX = 100
SEL_RATIO = 100


def make_selective():
    """Digits again, a long-tailed train split at imbalance ratio 100 (100 -> 1) in class order, and a
    balanced held-out set whose split column says `tunev` (the validation rows a threshold is chosen
    on) or `test`; two logistic regressions, one trained plainly, one with balanced class weights."""
    out = os.path.join(HERE, "selective-protocol")
    os.makedirs(out, exist_ok=True)
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    C = 10
    rng = np.random.default_rng(SEL_SEED)
    train_counts = [int(round(SEL_NMAX * SEL_RATIO ** (-c / (C - 1)))) for c in range(C)]
    train_idx, val_idx, test_idx = [], [], []
    half = SEL_HELDOUT_PER_CLASS // 2
    for c in range(C):
        idx = rng.permutation(np.flatnonzero(y == c))
        val_idx += list(idx[:half])
        test_idx += list(idx[half:SEL_HELDOUT_PER_CLASS])
        assert len(idx) - SEL_HELDOUT_PER_CLASS >= train_counts[c]
        train_idx += list(idx[SEL_HELDOUT_PER_CLASS:SEL_HELDOUT_PER_CLASS + train_counts[c]])
    train_idx = np.array(sorted(train_idx))
    held = np.array(val_idx + test_idx)
    split = np.array(["tunev"] * len(val_idx) + ["test"] * len(test_idx))
    perm = rng.permutation(len(held))
    held, split = held[perm], split[perm]
    assert np.bincount(y[train_idx], minlength=C).tolist() == train_counts
    print(f"selective-protocol: train {len(train_idx)} rows, counts by class {train_counts}; held-out "
          f"{len(held)} rows ({int(np.sum(split == 'tunev'))} tunev, {int(np.sum(split == 'test'))} test)")
    models = [
        ("logreg", "logistic regression", make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=2000))),
        ("logreg_balanced", "logistic regression, balanced class weights",
         make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=2000, class_weight="balanced"))),
    ]
    yh = y[held]
    for key, name, model in models:
        model.fit(X[train_idx], y[train_idx])
        probs = checked_scores(model.predict_proba(X[held]), key)
        pred = np.argmax(probs, axis=1)
        front = {"id": held, "label": yh, "pred": pred, "split": split}
        report(write_csv(os.path.join(out, f"{key}.csv"), front, probs, "prob_"), name, yh, pred)
    write_json(os.path.join(out, "train_counts.json"), train_counts)
    print("  selective-protocol/train_counts.json")


# --------------------------------------------------------------------------------------------
# cifar100-lt-like
# --------------------------------------------------------------------------------------------
CIFAR_SEED = 100
CIFAR_TEST_PER_CLASS = 20


def cifar100_lt_counts():
    """CIFAR-100-LT train counts at imbalance factor 100: floor(500 * 0.01**(c/99)), 500 -> 5."""
    return [int(np.floor(500 * 0.01 ** (c / 99))) for c in range(100)]


def make_cifar_like():
    out = os.path.join(HERE, "cifar100-lt-like")
    os.makedirs(out, exist_ok=True)
    C = 100
    counts = cifar100_lt_counts()
    assert sum(counts) == 10847 and counts[0] == 500 and counts[-1] == 5
    per_class = counts[0] + CIFAR_TEST_PER_CLASS
    X, y = make_classification(
        n_samples=per_class * C, n_features=48, n_informative=32, n_redundant=8, n_repeated=0,
        n_classes=C, n_clusters_per_class=1, class_sep=CIFAR_CLASS_SEP, flip_y=0.0,
        shuffle=True, random_state=CIFAR_SEED)
    rng = np.random.default_rng(CIFAR_SEED)
    train_idx, test_idx = [], []
    for c in range(C):
        idx = rng.permutation(np.flatnonzero(y == c))
        test_idx += list(idx[:CIFAR_TEST_PER_CLASS])
        train_idx += list(idx[CIFAR_TEST_PER_CLASS:CIFAR_TEST_PER_CLASS + counts[c]])
    train_idx = np.array(sorted(train_idx))
    test_idx = np.array(test_idx)[rng.permutation(len(test_idx))]
    assert np.bincount(y[train_idx], minlength=C).tolist() == counts

    models = [
        ("logreg", "logistic regression", LogisticRegression(C=CIFAR_LR_C, max_iter=CIFAR_LR_ITER)),
        ("logreg_balanced", "logistic regression, balanced", LogisticRegression(C=CIFAR_LR_C, max_iter=CIFAR_LR_ITER, class_weight="balanced")),
        ("mlp", "MLP (128 hidden units)", MLPClassifier(hidden_layer_sizes=(128,), alpha=1e-3, max_iter=60, early_stopping=False, random_state=CIFAR_SEED)),
    ]
    print(f"cifar100-lt-like: train {len(train_idx)} rows (500 -> 5), test {len(test_idx)} rows (20 per class)")
    yt = y[test_idx]
    ids = np.array([f"test_{i:04d}" for i in range(len(test_idx))])
    for key, name, model in models:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # fixed iteration budgets, on purpose
            model.fit(X[train_idx], y[train_idx])
        probs = checked_scores(model.predict_proba(X[test_idx]), key)
        pred = np.argmax(probs, axis=1)
        front = {"id": ids, "label": yt, "pred": pred}
        report(write_csv(os.path.join(out, f"{key}.csv"), front, probs, "prob_"), name, yt, pred)

    write_json(os.path.join(out, "train_counts.json"), counts)
    print("  cifar100-lt-like/train_counts.json")
    config = {
        "task": "classification",
        "classes": list(range(C)),
        "trainCounts": "train_counts.json",
        "groups": [69],
        "groupNames": ["head", "tail"],
        "imbalanceRatio": 100,
        "T": 100,
        "targetCoverage": 0.7,
        "topK": [5],
    }
    write_json(os.path.join(out, "eval-lens.json"), config)
    print("  cifar100-lt-like/eval-lens.json")


def verify(folder):
    """Read the written files back and check what the brief promises; raise on any failure."""
    d = os.path.join(HERE, folder)
    frames = {}
    for name in sorted(os.listdir(d)):
        path = os.path.join(d, name)
        if name.endswith(".csv"):
            frames[name] = pd.read_csv(path, float_precision="round_trip")
        elif name.endswith(".jsonl"):
            with open(path, encoding="utf-8") as f:
                rows = pd.DataFrame([json.loads(line) for line in f])
            wide = pd.DataFrame(rows.pop("probs").tolist())
            frames[name] = pd.concat([rows, wide.add_prefix("prob_")], axis=1)
    first = next(iter(frames.values()))
    keys = [k for k in ("id", "label", "split") if k in first.columns]
    for name, df in frames.items():
        assert not df.isna().any().any(), f"{folder}/{name}: NaN"
        for k in keys:
            assert df[k].tolist() == first[k].tolist(), f"{folder}/{name}: column {k} differs from the other files"
        scores = df.filter(regex=r"^(prob|logit)_").to_numpy(dtype=float)
        assert np.isfinite(scores).all(), f"{folder}/{name}: non-finite score"
        if df.columns[-1].startswith("logit_"):
            z = np.exp(scores - scores.max(axis=1, keepdims=True))
            scores = z / z.sum(axis=1, keepdims=True)
        dev = float(np.max(np.abs(scores.sum(axis=1) - 1)))
        assert dev <= 1e-3, f"{folder}/{name}: a row's probabilities sum to 1 +- {dev}"
        assert (np.argmax(scores, axis=1) == df["pred"].to_numpy()).all(), f"{folder}/{name}: pred != arg-max"
        print(f"  verified {folder}/{name}: {len(df)} rows, max |sum(p) - 1| = {dev:.2e}")
    if "logreg.jsonl" in frames:
        a = frames["logreg.jsonl"].filter(like="prob_").to_numpy()
        b = frames["logreg.csv"].filter(like="prob_").to_numpy()
        assert np.array_equal(a, b), "logreg.jsonl and logreg.csv hold different probabilities"


CIFAR_CLASS_SEP = 1.8
CIFAR_LR_C = 0.05
CIFAR_LR_ITER = 300

if __name__ == "__main__":
    make_digits()
    make_cifar_like()
    make_selective()
    verify("digits-lt")
    verify("cifar100-lt-like")
    verify("selective-protocol")
