#!/usr/bin/python3
"""Writes test/golden/pca.json: scikit-learn's PCA(n_components=2) of a few matrices, with Debian's
python3-sklearn (run with /usr/bin/python3 from the repository root):

    /usr/bin/python3 scripts/golden/pca.py

For every case: the matrix X (rows = items), and PCA(n_components=2, svd_solver="full") fitted on it:
`mean_`, `components_`, `explained_variance_`, `explained_variance_ratio_` and `transform(X)`.
The LAPACK solver is named so that no randomised solver is chosen by size.

Signs: scikit-learn before 1.5 (Debian ships 1.2.1) makes each column of U have its largest
absolute entry positive; since 1.5 its PCA makes each component's largest-|loading| entry positive
(`svd_flip(u, v, u_based_decision=False)`). Eval Lens uses the latter, so that rule is applied here
with scikit-learn's own `svd_flip` to the components and the coordinates alike.
"""
import json
import os

import numpy as np
import sklearn
from sklearn.decomposition import PCA
from sklearn.utils.extmath import svd_flip


def case(X):
    p = PCA(n_components=2, svd_solver="full").fit(X)
    coords = p.transform(X)
    coords, comps = svd_flip(coords.copy(), p.components_.copy(), u_based_decision=False)
    return {
        "X": X.tolist(),
        "mean": p.mean_.tolist(),
        "components": comps.tolist(),
        "explained_variance": p.explained_variance_.tolist(),
        "explained_variance_ratio": p.explained_variance_ratio_.tolist(),
        "coords": coords.tolist(),
    }


rng = np.random.default_rng(20261124)
cases = {}
# Anisotropic Gaussian: column scales 5, 3, 1, 0.5, 0.1 (well separated eigenvalues).
cases["anisotropic_50x5"] = case(rng.normal(size=(50, 5)) * np.array([5.0, 3.0, 1.0, 0.5, 0.1]) + 2.0)
# An embedding-like matrix: rank-3 structure plus noise, 120 items × 12 dimensions, offset mean.
B = rng.normal(size=(120, 3)) @ rng.normal(size=(3, 12)) * np.array([3.0, 2.0, 1.0]).repeat(4)
cases["lowrank_120x12"] = case(B + 0.05 * rng.normal(size=(120, 12)) + rng.normal(size=12))
# Two dimensions: both components kept, a rotation of the plane.
t = rng.normal(size=(30, 2)) * np.array([4.0, 1.0])
R = np.array([[np.cos(0.7), -np.sin(0.7)], [np.sin(0.7), np.cos(0.7)]])
cases["rotated_30x2"] = case(t @ R.T)
# Factor-model-like float32 values (as an .npy of factors would hold), 80 × 32.
F = (rng.normal(size=(80, 32)) * np.linspace(2.0, 0.2, 32)).astype(np.float32).astype(np.float64)
cases["float32_80x32"] = case(F)
# Above 256 dimensions, where Eval Lens finds the two leading components by a Krylov method instead
# of the whole covariance: a text-embedding-like matrix, 150 items × 300 dimensions, rank-2 structure
# plus noise, the values rounded to 3 decimals (so the file stays small; X is stored as rounded).
E = rng.normal(size=(150, 2)) @ (rng.normal(size=(2, 300)) * np.array([[1.5], [1.0]])) + 0.3 * rng.normal(size=(150, 300))
cases["embedding_150x300"] = case(np.round(E + 0.2 * rng.normal(size=300), 3))

os.makedirs("test/golden", exist_ok=True)
with open("test/golden/pca.json", "w") as fh:
    json.dump({"generator": "scripts/golden/pca.py", "sklearn": sklearn.__version__, "cases": cases}, fh)
    fh.write("\n")
print("wrote test/golden/pca.json:", ", ".join(cases))
