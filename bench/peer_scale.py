#!/usr/bin/python3
"""The Python peer of the scaling bench: what a typical pandas + scikit-learn script computes on a
predictions CSV of `id,label,pred,prob_0..prob_{C-1}` (no config, no bootstrap).

  peer_scale.py FILE

Reads the file with pandas, then computes accuracy, balanced accuracy, macro-F1, log-loss, top-5
accuracy and the area under the risk-coverage curve (rows sorted by max probability, descending;
the mean of the running error rate). Prints one line per stage (`<stage> <seconds>`), then
`total <seconds>` and `values <json>` so the bench can check both tools computed the same numbers.
"""
from __future__ import annotations

import json
import sys
import time

import numpy as np
import pandas as pd
from sklearn import metrics as skm

STAGES = []


def stage(name, t0):
    dt = time.perf_counter() - t0
    STAGES.append((name, dt))
    print(f"{name:<20s} {dt:9.3f}", flush=True)
    return time.perf_counter()


def main(path):
    start = t = time.perf_counter()
    df = pd.read_csv(path)
    t = stage("read", t)
    prob_cols = [c for c in df.columns if c.startswith("prob_")]
    P = df[prob_cols].to_numpy(dtype=np.float64)
    y = df["label"].to_numpy()
    pred = df["pred"].to_numpy()
    C = P.shape[1]
    values = {
        "accuracy": float(skm.accuracy_score(y, pred)),
        "balanced_accuracy": float(skm.balanced_accuracy_score(y, pred)),
        "macro_f1": float(skm.f1_score(y, pred, average="macro")),
    }
    t = stage("classification", t)
    values["nll"] = float(skm.log_loss(y, P, labels=list(range(C))))
    if C > 5:
        # scikit-learn breaks a tie at the k-th place by class index; Eval Lens counts a tie in the
        # model's favour (rank = 1 + the classes with a strictly higher score). Both are computed,
        # and the check compares the rule Eval Lens documents (the same numbers when no tie).
        values["top5_accuracy_sklearn"] = float(skm.top_k_accuracy_score(y, P, k=5, labels=list(range(C))))
        p_true = P[np.arange(len(y)), y]
        values["top5_accuracy"] = float(np.mean((P > p_true[:, None]).sum(axis=1) < 5))
    t = stage("probabilistic", t)
    conf = P.max(axis=1)
    order = np.argsort(-conf, kind="stable")
    wrong = (pred != y)[order]
    values["aurc"] = float(np.mean(np.cumsum(wrong) / np.arange(1, len(y) + 1)))
    stage("aurc", t)
    print(f"{'total':<20s} {time.perf_counter() - start:9.3f}")
    print("values " + json.dumps(values))


if __name__ == "__main__":
    main(sys.argv[1])
