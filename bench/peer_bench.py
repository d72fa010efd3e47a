#!/usr/bin/python3
"""The metric set computed by a typical Python user pipeline (pandas + numpy +
scikit-learn + scipy), timed stage by stage, on the inputs of gen_large.py.

  peer_bench.py DIR [--only cls|rank] [--bootstrap 1000] [--json OUT.json]

Prints one line per stage: `<stage> <seconds>`, then the total, the peak RSS,
and writes the computed values ({key: value}, usable as a reference for
comparison) when --json is given.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time

import numpy as np
import pandas as pd
from sklearn import metrics as skm

STAGES = []


class stage:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self.t = time.perf_counter()

    def __exit__(self, *exc):
        dt = time.perf_counter() - self.t
        STAGES.append((self.name, dt))
        print(f"{self.name:<34s} {dt:9.3f} s", flush=True)


def bootstrap_accuracy(wrong, n_boot, rng):
    """Accuracy of each of n_boot resamples of the rows (drawn with replacement)."""
    n = len(wrong)
    return [np.mean(~wrong[rng.integers(0, n, n)]) for _ in range(n_boot)]


def bootstrap_aurc(wrong, s, n_boot, rng):
    """AURC of each of n_boot resamples: sort by score, mean of the running risk."""
    n = len(wrong)
    kk = np.arange(1, n + 1)
    au = []
    for _ in range(n_boot):
        ix = rng.integers(0, n, n)
        o3 = np.argsort(-s[ix], kind="stable")
        au.append(np.mean(np.cumsum(wrong[ix][o3]) / kk))
    return au


def bench_cls(d, n_boot, out):
    cfg = json.load(open(os.path.join(d, "eval-lens.json")))
    C = len(cfg["classes"])
    with stage("cls.read_csv (pandas)"):
        df = pd.read_csv(os.path.join(d, "preds.csv"))
    with stage("cls.to_numpy"):
        y = df["label"].to_numpy()
        yhat = df["pred"].to_numpy()
        P = df[[f"prob_{c}" for c in range(C)]].to_numpy(dtype=np.float64)
    n = len(y)
    wrong = yhat != y
    with stage("cls.classification (sklearn)"):
        out["accuracy"] = skm.accuracy_score(y, yhat)
        out["balanced_accuracy"] = skm.balanced_accuracy_score(y, yhat)
        out["macro_f1"] = skm.f1_score(y, yhat, average="macro")
        for k in cfg.get("topK", [5]):
            out[f"top{k}_accuracy"] = skm.top_k_accuracy_score(y, P, k=k, labels=np.arange(C))
        p_true = P[np.arange(n), y]
        out["nll"] = float(np.mean(-np.log(np.maximum(p_true, 1e-15))))
        Y = np.zeros_like(P)
        Y[np.arange(n), y] = 1
        out["brier"] = float(np.mean(np.sum((P - Y) ** 2, axis=1)))
        skm.confusion_matrix(y, yhat, labels=np.arange(C))
    with stage("cls.long_tail + reweighting"):
        counts = np.asarray(cfg["trainCounts"], dtype=float)
        per_class = np.bincount(y[~wrong], minlength=C) / np.bincount(y, minlength=C)
        order = np.argsort(-counts, kind="stable")
        rank = np.empty(C, dtype=int)
        rank[order] = np.arange(1, C + 1)
        shot = np.where(counts > 100, 0, np.where(counts < 20, 2, 1))
        for g, nm in enumerate(["many", "medium", "few"]):
            m = shot[y] == g
            out[f"acc_{nm}"] = float(np.mean(~wrong[m]))
        grp_of_class = (rank > cfg["groups"][0]).astype(int)
        rg = grp_of_class[y]
        for g, nm in enumerate(cfg["groupNames"]):
            out[f"acc_group.{nm}"] = float(np.mean(~wrong[rg == g]))
        w = counts[y] / counts.sum()
        out["weighted_accuracy"] = float(np.sum(w * ~wrong) / w.sum())
    with stage("cls.evolving_distributions"):
        rho = float(cfg["imbalanceRatio"])
        T = int(cfg.get("T", C))
        acc_r = per_class[order]
        q_tr = counts[order] / counts.sum()
        cidx = np.arange(1, C + 1)
        V, D = [], []
        for t in range(1, T + 1):
            a = (t - 1) * C / T + 1
            q = rho ** (-np.abs(cidx - a) / (C - 1))
            q /= q.sum()
            V.append(q @ acc_r)
            D.append(np.sum(q_tr * np.log(q_tr / q) + q * np.log(q / q_tr)))
        V, D = np.array(V), np.array(D)
        o = np.argsort(D, kind="stable")
        out["shift_auc"] = float(np.trapz(V[o], D[o]) / (D[o][-1] - D[o][0]))
        out["shift_avg"] = float(V.mean())
        out["shift_std"] = float(V.std())
        out["shift_max"], out["shift_min"] = float(V.max()), float(V.min())
        out["shift_dr"] = float((V.max() - V.min()) / V.max())
        out["btd"] = float(acc_r.mean())
        out["acc_forward"] = float(q_tr @ acc_r)
        out["acc_uniform"] = float(acc_r.mean())
        out["acc_backward"] = float(q_tr[::-1] @ acc_r)
    with stage("cls.selective (operating point)"):
        s = P.max(axis=1)
        srt = np.argsort(-s, kind="stable")
        k = int(np.ceil(cfg["targetCoverage"] * n - 1e-9))
        t = s[srt[k - 1]]
        A = s >= t
        out["coverage"] = float(A.mean())
        out["selective_risk"] = float(wrong[A].mean())
        eg = []
        for g, nm in enumerate(cfg["groupNames"]):
            m = A & (rg == g)
            eg.append(float(wrong[m].mean()) if m.any() else 1.0)
            out[f"error_group.{nm}"] = eg[-1]
            mw = (rg == g)
            out[f"weighted_error_group.{nm}"] = float(
                np.sum(w[mw] * wrong[mw] * A[mw]) / (np.sum(w[mw] * A[mw]) + 1e-12))
        out["balanced_error"] = float(np.mean(eg))
        out["worst_error"] = float(np.max(eg))
    with stage("cls.aurc exact (sort+cumsum)"):
        ws = wrong[srt].astype(float)
        kk = np.arange(1, n + 1)
        risk = np.cumsum(ws) / kk
        out["aurc"] = float(risk.mean())
        r = ws.sum()
        out["eaurc"] = out["aurc"] - float(np.mean(np.maximum(0, kk - (n - r)) / kk))
        G = len(cfg["groupNames"])
        gs = rg[srt]
        accg = np.stack([np.cumsum(gs == g) for g in range(G)], axis=1).astype(float)
        errg = np.stack([np.cumsum((gs == g) * ws) for g in range(G)], axis=1)
        e = np.where(accg > 0, errg / np.maximum(accg, 1), 1.0)
        out["aurc_balanced"] = float(e.mean(axis=1).mean())
        out["aurc_worst"] = float(e.max(axis=1).mean())
    with stage("cls.aurc grid101 (python loop)"):
        xs = np.arange(1, 102) / 101
        rs, rb, rw = [], [], []
        for i in range(1, 102):
            kk_ = (n * i) // 101
            A_ = np.zeros(n, dtype=bool)
            A_[srt[:kk_]] = True
            rs.append(wrong[A_].mean())
            eg_ = [wrong[A_ & (rg == g)].mean() if (A_ & (rg == g)).any() else 1.0 for g in range(G)]
            rb.append(np.mean(eg_))
            rw.append(np.max(eg_))
        m02 = xs >= 0.2
        for nm, rr in (("aurc", rs), ("aurc_balanced", rb), ("aurc_worst", rw)):
            rr = np.array(rr)
            out[f"{nm}_grid101"] = float(np.trapz(rr, xs))
            out[f"{nm}_grid101_0.2_1"] = float(np.trapz(rr[m02], xs[m02]) / 0.8)
    with stage("cls.calibration (ece/mce/adaptive)"):
        correct = ~wrong
        edges = np.arange(16) / 15
        b = np.clip(np.searchsorted(edges, s, side="left") - 1, 0, 14)   # (lo, hi]
        cnt = np.bincount(b, minlength=15)
        sa = np.bincount(b, weights=correct, minlength=15)
        sc = np.bincount(b, weights=s, minlength=15)
        nz = cnt > 0
        gap = np.abs(sa[nz] / cnt[nz] - sc[nz] / cnt[nz])
        out["ece"] = float(np.sum(cnt[nz] / n * gap))
        out["mce"] = float(gap.max())
        o2 = np.argsort(s, kind="stable")
        out["ece_adaptive"] = float(sum(len(ix) / n * abs(correct[ix].mean() - s[ix].mean())
                                        for ix in np.array_split(o2, 15)))
    if n_boot:
        rng = np.random.default_rng(0)
        with stage(f"cls.bootstrap accuracy x{n_boot}"):
            accs = bootstrap_accuracy(wrong, n_boot, rng)
            out["_ci.accuracy"] = [float(np.percentile(accs, 2.5)), float(np.percentile(accs, 97.5))]
        with stage(f"cls.bootstrap aurc x{n_boot}"):
            au = bootstrap_aurc(wrong, s, n_boot, rng)
            out["_ci.aurc"] = [float(np.percentile(au, 2.5)), float(np.percentile(au, 97.5))]
    return y, yhat, P, cfg


def bench_rank(d, out):
    cfg = json.load(open(os.path.join(d, "eval-lens.json")))
    Ks = cfg["k"]
    with stage("rank.read_jsonl (json.loads)"):
        rows = [json.loads(line) for line in open(os.path.join(d, "recs.jsonl"), encoding="utf-8")]
    with stage("rank.read_train (pandas)"):
        tr = pd.read_csv(os.path.join(d, cfg["train"]), dtype=str)
        tcount = tr["item"].value_counts()
    with stage("rank.per_user_metrics (python)"):
        ev = [r for r in rows if r["relevant"]]
        out["users_evaluated"] = len(ev)
        out["users_skipped"] = len(rows) - len(ev)
        disc = 1.0 / np.log2(np.arange(2, max(Ks) + 2))
        acc = {f"{m}@{K}": 0.0 for K in Ks for m in ("recall", "precision", "ndcg", "map", "hit_rate")}
        rr = 0.0
        for r in ev:
            rel = set(r["relevant"])
            hits = np.array([1.0 if i in rel else 0.0 for i in r["items"]])
            nrel = len(rel)
            first = np.flatnonzero(hits)
            rr += 1.0 / (first[0] + 1) if len(first) else 0.0
            for K in Ks:
                h = hits[:K]
                nh = h.sum()
                acc[f"recall@{K}"] += nh / nrel
                acc[f"precision@{K}"] += nh / K
                acc[f"hit_rate@{K}"] += 1.0 if nh > 0 else 0.0
                idcg = disc[:min(nrel, K)].sum()
                acc[f"ndcg@{K}"] += float(h @ disc[:len(h)]) / idcg
                prec_at = np.cumsum(h) / np.arange(1, len(h) + 1)
                acc[f"map@{K}"] += float(np.sum(prec_at * h)) / min(nrel, K)
        for k, v in acc.items():
            out[k] = v / len(ev)
        out["mrr"] = rr / len(ev)
    with stage("rank.coverage + cold_start"):
        cold = set(tcount[tcount < cfg["coldThreshold"]].index)
        for K in Ks:
            topk = set()
            for r in ev:
                topk.update(r["items"][:K])
            out[f"coverage@{K}"] = len(topk) / cfg["catalogSize"]
            out[f"cold_start_coverage@{K}"] = len(topk & cold) / len(cold) if cold else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--only", choices=["cls", "rank"])
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    out = {}
    t0 = time.perf_counter()
    cls = None
    if a.only in (None, "cls"):
        cls = bench_cls(os.path.join(a.dir, "cls"), a.bootstrap, out)
    if a.only in (None, "rank"):
        bench_rank(os.path.join(a.dir, "rank"), out)
    tot = time.perf_counter() - t0
    print(f"{'TOTAL':<34s} {tot:9.3f} s")
    print(f"{'peak RSS':<34s} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:9.0f} MB")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({k: v for k, v in out.items() if not k.startswith("_")}, f, indent=1,
                      default=float)


if __name__ == "__main__":
    main()
