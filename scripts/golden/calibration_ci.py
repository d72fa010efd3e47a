#!/usr/bin/python3
"""Golden values for the basic bootstrap interval of the binned calibration errors
(src/core/stats/bootstrap.ts `basicInterval`, `intervalOf`).

Run with Debian's python3 (scipy 1.10): `/usr/bin/python3 scripts/golden/calibration_ci.py`.
Writes test/golden/calibration_ci.json.

For each case: a sample of top-label confidences and correctness, its ECE and MCE (15 equal-width
bins (lo, hi], as `calibrationValues`), and scipy.stats.bootstrap(paired=True, method='basic') and
method='percentile' of each with 200 resamples. scipy's basic interval is
[2·θ̂ − q(1−α/2), 2·θ̂ − q(α/2)] over its resamples' values (numpy's linear percentile), the basic
interval of Davison & Hinkley (1997), Bootstrap Methods and their Application, §5.2. The file keeps
scipy's resample values (`bootstrap_distribution`), so the test feeds the same values to
`basicInterval` and compares the bounds (scipy does not clip to [0, 1]; the test clips its bounds).
"""
import json
import os

import numpy as np
from scipy import stats

B = 15


def calibration(conf, correct, axis=-1):
    conf = np.atleast_2d(conf)
    correct = np.atleast_2d(correct)
    ece = np.zeros(conf.shape[0])
    mce = np.zeros(conf.shape[0])
    for r in range(conf.shape[0]):
        c, k = conf[r], correct[r]
        n = len(c)
        for i in range(B):
            lo, hi = i / B, (i + 1) / B
            m = (c > lo) & (c <= hi)
            if m.any():
                gap = abs(k[m].sum() - c[m].sum()) / m.sum()
                ece[r] += m.sum() / n * gap
                mce[r] = max(mce[r], gap)
    return ece, mce


def case(name, n, delta, seed):
    rng = np.random.default_rng(seed)
    conf = np.round(rng.uniform(0.5, 1.0, n), 6)
    correct = (rng.uniform(size=n) < conf - delta).astype(float)
    out = {"name": name, "conf": conf.tolist(), "correct": correct.tolist(), "resamples": 200, "confidence": 0.95}
    for key, idx in (("ece", 0), ("mce", 1)):
        stat = lambda c, k, axis=-1, idx=idx: calibration(c, k)[idx]
        point = float(calibration(conf, correct)[idx][0])
        res = {}
        for method in ("basic", "percentile"):
            r = stats.bootstrap(
                (conf, correct),
                stat,
                paired=True,
                vectorized=True,
                n_resamples=200,
                confidence_level=0.95,
                method=method,
                random_state=np.random.default_rng(seed + 1),
            )
            res[method] = [float(r.confidence_interval.low), float(r.confidence_interval.high)]
            dist = [float(x) for x in r.bootstrap_distribution]
        out[key] = {"point": point, "basic": res["basic"], "percentile": res["percentile"], "bootstrap_distribution": dist}
    return out


cases = [
    case("n = 300, accuracy 0.05 below confidence", 300, 0.05, 11),
    case("n = 120, well calibrated", 120, 0.0, 12),
]
path = os.path.join(os.path.dirname(__file__), "..", "..", "test", "golden", "calibration_ci.json")
with open(path, "w") as f:
    json.dump({"generator": "scripts/golden/calibration_ci.py", "scipy": __import__("scipy").__version__, "cases": cases}, f, indent=1)
    f.write("\n")
print("wrote", os.path.normpath(path))
