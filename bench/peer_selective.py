#!/usr/bin/python3
"""Side-by-side peer for bench/selective.bench.ts: the bootstrap stages of
bench/peer_bench.py ("cls.bootstrap accuracy x1000", "cls.bootstrap aurc x1000"), the same
functions, plus the same loop for ECE, on bench/data/cls/preds.csv. Prints seconds per stage and
CPU seconds. Usage (project root): /usr/bin/python3 bench/peer_selective.py [--n 1000]
"""
import argparse
import json
import os
import time

import numpy as np
import pandas as pd

from peer_bench import bootstrap_accuracy, bootstrap_aurc


def stage(name, fn):
    t, c = time.perf_counter(), time.process_time()
    r = fn()
    print(f"peer       {name:<46} {time.perf_counter() - t:8.3f} s  (cpu {time.process_time() - c:.3f} s)", flush=True)
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--dir", default="bench/data/cls")
    a = ap.parse_args()
    cfg = json.load(open(os.path.join(a.dir, "eval-lens.json")))
    C = len(cfg["classes"])
    df = pd.read_csv(os.path.join(a.dir, "preds.csv"))
    y = df["label"].to_numpy()
    yhat = df["pred"].to_numpy()
    P = df[[f"prob_{c}" for c in range(C)]].to_numpy(dtype=np.float64)
    n = len(y)
    wrong = yhat != y
    s = P.max(axis=1)
    rng = np.random.default_rng(0)

    def ece():
        edges = np.arange(16) / 15
        out = []
        for _ in range(a.n):
            ix = rng.integers(0, n, n)
            si, ci = s[ix], ~wrong[ix]
            b = np.clip(np.searchsorted(edges, si, side="left") - 1, 0, 14)
            cnt = np.bincount(b, minlength=15)
            sa = np.bincount(b, weights=ci, minlength=15)
            sc = np.bincount(b, weights=si, minlength=15)
            out.append(np.sum(np.abs(sa - sc)) / n)
        return out

    stage(f"bootstrap accuracy x{a.n}", lambda: bootstrap_accuracy(wrong, a.n, rng))
    au = stage(f"bootstrap aurc x{a.n}", lambda: bootstrap_aurc(wrong, s, a.n, rng))
    stage(f"bootstrap ece x{a.n}", ece)
    print(f"peer       aurc 95% CI [{np.percentile(au, 2.5):.6f}, {np.percentile(au, 97.5):.6f}]")


if __name__ == "__main__":
    main()
