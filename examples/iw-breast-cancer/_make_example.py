#!/usr/bin/python3
"""Make the importance-weighting example in examples/iw-breast-cancer.

Real data, real classifiers, a simulated biased labelling process (docs/metrics/importance.md):

* Data: scikit-learn's bundled Wisconsin breast-cancer dataset (load_breast_cancer: 569 tumours,
  30 features; no download). Positive = malignant.
* Classifiers: a standardised logistic regression and a Gaussian naive Bayes, trained on a
  stratified 40% of the rows. Their probability of "malignant" is the `score`.
* Population U: the other 60% (the items "the system has processed").
* Biased labelling: a screening rule flags every tumour with `worst radius` >= 18; the flagged
  items form B (|B| known) and are all labelled (stratum `B`). Of the rest, a uniform random sample
  of 100 items is labelled too (stratum `Bc`). Everything else in U stays unlabelled: it is NOT in
  the files. B is rich in malignant tumours, the rest is not, so unweighted precision/recall on the
  labelled rows are biased; the importance weights w_B = (|B|/b)/|U|, w_Bc = ((|U|-|B|)/m)/|U|
  correct that.
* Because this is a simulation, every item of U really has a label: `_population_truth.json` holds
  the metrics on the whole of U (threshold 0.5), to compare with the weighted and unweighted
  estimates that Eval Lens computes from the labelled rows only. Its name starts with `_` so that
  `npm run demo` does not evaluate it.

Writes logreg.csv and gaussian_nb.csv (columns id, label, score, stratum), eval-lens.json and
_population_truth.json. Run with Debian's Python (scikit-learn 1.2.1):
    /usr/bin/python3 examples/iw-breast-cancer/_make_example.py
Deterministic: fixed seeds, one BLAS thread, scores written with 6 decimals.
"""

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import json  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.datasets import load_breast_cancer  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import (  # noqa: E402
    accuracy_score,
    auc,
    average_precision_score,
    f1_score,
    precision_recall_curve,
    precision_score,
    recall_score,
    roc_auc_score,
)
from sklearn.model_selection import train_test_split  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20261122
RULE_FEATURE = "worst radius"
RULE_CUTOFF = 18.0
BC_SAMPLE = 100
THRESHOLD = 0.5

data = load_breast_cancer()
X = data.data
y = 1 - data.target  # sklearn codes malignant as 0; here malignant = 1 (positive)
ids = np.array([f"bc{i:03d}" for i in range(len(y))])

X_train, X_pop, y_train, y_pop, _, id_pop = train_test_split(X, y, ids, train_size=0.4, stratify=y, random_state=SEED)

models = {
    "logreg": make_pipeline(StandardScaler(), LogisticRegression(C=0.05, max_iter=1000)),
    "gaussian_nb": GaussianNB(),
}

# The biased labelling process on the population U.
flag = X_pop[:, list(data.feature_names).index(RULE_FEATURE)] >= RULE_CUTOFF
U = len(y_pop)
B_idx = np.flatnonzero(flag)
rest = np.flatnonzero(~flag)
rng = np.random.default_rng(SEED)
Bc_idx = np.sort(rng.choice(rest, size=BC_SAMPLE, replace=False))
labelled = np.concatenate([B_idx, Bc_idx])
strata = np.array(["B"] * len(B_idx) + ["Bc"] * len(Bc_idx))
order = np.argsort(id_pop[labelled], kind="stable")  # rows in id order
labelled, strata = labelled[order], strata[order]


def metrics(yy, ss, w=None):
    pred = (ss >= THRESHOLD).astype(int)
    p, r, _ = precision_recall_curve(yy, ss, sample_weight=w)
    return {
        "precision": float(precision_score(yy, pred, sample_weight=w, zero_division=0)),
        "recall": float(recall_score(yy, pred, sample_weight=w)),
        "f1": float(f1_score(yy, pred, sample_weight=w)),
        "aupr_trapz": float(auc(r, p)),
        "average_precision": float(average_precision_score(yy, ss, sample_weight=w)),
        "roc_auc": float(roc_auc_score(yy, ss, sample_weight=w)),
        "error_rate": float(1 - accuracy_score(yy, pred, sample_weight=w)),
    }


truth = {
    "note": "Metrics on the whole population U (every item labelled, which a real study would not have), "
    "beside scikit-learn's weighted and unweighted values on the labelled rows only. Threshold 0.5.",
    "populationSize": int(U),
    "biasedSize": int(len(B_idx)),
    "labelledRows": {"B": int(len(B_idx)), "Bc": int(len(Bc_idx))},
    "prevalence": {"U": float(y_pop.mean()), "B": float(y_pop[B_idx].mean()), "rest": float(y_pop[rest].mean())},
    "models": {},
}
wB = (len(B_idx) / len(B_idx)) / U
wBc = ((U - len(B_idx)) / len(Bc_idx)) / U
for name, model in models.items():
    model.fit(X_train, y_train)
    score = np.round(model.predict_proba(X_pop)[:, 1], 6)
    with open(os.path.join(HERE, f"{name}.csv"), "w") as fh:
        fh.write("id,label,score,stratum\n")
        for i, st in zip(labelled, strata):
            fh.write(f"{id_pop[i]},{y_pop[i]},{score[i]:.6f},{st}\n")
    ys, ss = y_pop[labelled], score[labelled]
    w = np.where(strata == "B", wB, wBc)
    truth["models"][name] = {
        "population": metrics(y_pop, score),
        "weighted_estimate": metrics(ys, ss, w),
        "unweighted": metrics(ys, ss),
    }

config = {
    "task": "iw-binary",
    "populationSize": int(U),
    "biasedSize": int(len(B_idx)),
    "threshold": THRESHOLD,
    "bootstrap": {"n": 1000, "confidence": 0.95, "seed": 0},
}
with open(os.path.join(HERE, "eval-lens.json"), "w") as fh:
    json.dump(config, fh, indent=2)
    fh.write("\n")
with open(os.path.join(HERE, "_population_truth.json"), "w") as fh:
    json.dump(truth, fh, indent=2)
    fh.write("\n")
print(json.dumps(truth, indent=1))
