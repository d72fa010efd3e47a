#!/usr/bin/python3
"""Golden values for the classification metrics (docs/metrics/classification.md), from scikit-learn 1.2.1.

Run with Debian's python (it has scikit-learn):  /usr/bin/python3 scripts/golden/classification.py

Writes
  test/fixtures/golden/classification_*.csv   random cases made here with a fixed seed
  test/golden/classification.json             values per case (random cases and every
                                              examples/*/*.csv that has a label column)

Values: accuracy_score, balanced_accuracy_score, f1_score(average='macro'), matthews_corrcoef, top_k_accuracy_score,
log_loss, confusion_matrix (all with sample_weight when the case has weights), and the multi-class
Brier score computed with numpy (scikit-learn 1.2.1's brier_score_loss is binary only).

Conventions that differ from scikit-learn and how the cases avoid them:
  * log_loss clips to [1e-15, 1 - 1e-15] and renormalises each row; Eval Lens uses
    -ln max(p_true, 1e-15) on the probabilities as written. Both are given: `log_loss_sklearn` on the
    random cases (rows sum to 1, no value below 1e-15, so they agree) and `nll` computed with numpy
    by the Eval Lens formula for every case (the example files have zeros and rounded rows).
  * top_k_accuracy_score breaks ties by class index; Eval Lens counts ties as hits. The random cases
    have continuous scores (no ties); for the example files `topk_tie_rows` says how many rows have a
    tie at the true class's score, and the test compares top-k only when it is 0.
"""
import csv
import glob
import json
import os
import sys

import numpy as np
from sklearn.metrics import (accuracy_score, balanced_accuracy_score, confusion_matrix, f1_score,
                             log_loss, matthews_corrcoef, top_k_accuracy_score)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
FIX = os.path.join(ROOT, 'test', 'fixtures', 'golden')
OUT = os.path.join(ROOT, 'test', 'golden', 'classification.json')


def softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def values_for(y, pred, probs, w, C, topk):
    """y, pred: class indices; probs: n x C or None; w: weights or None."""
    labels = list(range(C))
    out = {
        'accuracy': float(accuracy_score(y, pred, sample_weight=w)),
        'balanced_accuracy': float(balanced_accuracy_score(y, pred, sample_weight=w)),
        'macro_f1': float(f1_score(y, pred, average='macro', sample_weight=w, zero_division=0)),
        'matthews_corrcoef': float(matthews_corrcoef(y, pred, sample_weight=w)),
        'confusion': confusion_matrix(y, pred, labels=labels, sample_weight=w).astype(float).tolist(),
    }
    if probs is not None:
        ww = np.ones(len(y)) if w is None else np.asarray(w)
        p_true = probs[np.arange(len(y)), y]
        out['nll'] = float(np.sum(ww * -np.log(np.maximum(p_true, 1e-15))) / ww.sum())
        onehot = np.eye(C)[y]
        out['brier'] = float(np.sum(ww * ((probs - onehot) ** 2).sum(axis=1)) / ww.sum())
        # Rows where another class has exactly the true class's score (sklearn breaks such ties by index).
        ties = int(np.sum(np.sum(probs == p_true[:, None], axis=1) > 1))
        out['topk_tie_rows'] = ties
        # Eval Lens's rule computed with numpy: rank = 1 + #classes with a strictly higher score.
        rank = 1 + np.sum(probs > p_true[:, None], axis=1)
        for k in topk:
            if k < C:
                out[f'top{k}_accuracy'] = float(top_k_accuracy_score(y, probs, k=k, labels=labels, sample_weight=w))
            out[f'top{k}_accuracy_ties_as_hits'] = float(np.sum(ww * (rank <= k)) / ww.sum())
        if np.all(np.abs(probs.sum(axis=1) - 1) < 1e-9) and probs.min() >= 1e-15:
            out['log_loss_sklearn'] = float(log_loss(y, probs, labels=labels, sample_weight=w))
    return out


def write_case(name, classes, y, pred, probs, w):
    path = os.path.join(FIX, f'classification_{name}.csv')
    with open(path, 'w', newline='') as f:
        wr = csv.writer(f, lineterminator='\n')
        head = ['id', 'label', 'pred'] + ([f'prob_{c}' for c in classes] if probs is not None else []) + (['weight'] if w is not None else [])
        wr.writerow(head)
        for i in range(len(y)):
            row = [f'r{i}', classes[y[i]], classes[pred[i]]]
            if probs is not None:
                row += [repr(float(x)) for x in probs[i]]
            if w is not None:
                row.append(repr(float(w[i])))
            wr.writerow(row)
    return os.path.relpath(path, ROOT)


def random_cases():
    rng = np.random.default_rng(20240611)
    cases = []

    def make(name, n, classes, weighted, pred_noise, with_probs=True, drop_true=None, skew=1.0):
        C = len(classes)
        prior = np.linspace(1.0, skew, C)
        prior /= prior.sum()
        y = rng.choice(C, size=n, p=prior)
        if drop_true is not None:
            y[y == drop_true] = (drop_true + 1) % C
        logits = rng.normal(size=(n, C)) + 2.0 * np.eye(C)[y]
        probs = softmax(logits)
        pred = probs.argmax(axis=1)
        if pred_noise > 0:
            flip = rng.random(n) < pred_noise
            pred[flip] = rng.choice(C, size=flip.sum())
        w = rng.uniform(0.0, 3.0, size=n) if weighted else None
        p = probs if with_probs else None
        file = write_case(name, classes, y, pred, p, w)
        cases.append({'name': name, 'file': file, 'classes': classes, 'weighted': weighted, 'probs': with_probs,
                      'topK': [1, 2, 3], 'values': values_for(y, pred, p, w, C, [1, 2, 3])})

    make('argmax7', 500, [str(c) for c in range(7)], False, 0.0, skew=0.1)
    make('weighted5', 400, [str(c) for c in range(5)], True, 0.0)
    # pred column that is not the arg-max; class 5 never a true label (union of labels matters for macro F1)
    make('noisy_pred6', 300, [str(c) for c in range(6)], True, 0.3, drop_true=5)
    make('strings4', 250, ['cat', 'dog', 'eel', 'fox'], False, 0.1)
    make('predonly4', 200, [str(c) for c in range(4)], True, 0.4, with_probs=False)
    return cases


def read_example(path, cfg):
    with open(path, newline='') as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return None
    cols = list(rows[0].keys())
    lower = {c.lower(): c for c in cols}
    label_col = next((lower[a] for a in ('label', 'y_true', 'target', 'gt') if a in lower), None)
    if label_col is None:
        return None
    pred_col = next((lower[a] for a in ('pred', 'y_pred', 'prediction') if a in lower), None)
    prob_cols = [c for c in cols if c.lower().startswith('prob_') or c.lower().startswith('p_')]
    logit_cols = [c for c in cols if c.lower().startswith('logit_')]
    score_cols = prob_cols or logit_cols
    if cfg.get('classes') is not None:
        classes = [str(c) for c in cfg['classes']]
    elif score_cols:
        classes = [c.split('_', 1)[1] for c in score_cols]
    else:
        labs = sorted({r[label_col] for r in rows} | ({r[pred_col] for r in rows} if pred_col else set()))
        classes = sorted(labs, key=int) if all(s.lstrip('-').isdigit() for s in labs) else labs
    index = {c: i for i, c in enumerate(classes)}
    y = np.array([index[r[label_col]] for r in rows])
    probs = None
    if score_cols:
        by_class = {c.split('_', 1)[1]: c for c in score_cols}
        mat = np.array([[float(r[by_class[c]]) for c in classes] for r in rows])
        probs = softmax(mat) if logit_cols and not prob_cols else mat
    if pred_col:
        pred = np.array([index[r[pred_col]] for r in rows])
    else:
        pred = probs.argmax(axis=1)  # first maximum on ties, as docs/inputs.md
    wcol = lower.get('weight')
    w = np.array([float(r[wcol]) for r in rows]) if wcol else None
    return classes, y, pred, probs, w


def example_cases():
    cases = []
    for path in sorted(glob.glob(os.path.join(ROOT, 'examples', '*', '*.csv'))):
        cfg_path = os.path.join(os.path.dirname(path), 'eval-lens.json')
        cfg = json.load(open(cfg_path)) if os.path.exists(cfg_path) else {}
        if cfg.get('task', 'classification') != 'classification':
            continue
        got = read_example(path, cfg)
        if got is None:
            continue
        classes, y, pred, probs, w = got
        topk = cfg.get('topK', [5])
        cases.append({'name': os.path.relpath(path, ROOT), 'file': os.path.relpath(path, ROOT), 'classes': classes,
                      'weighted': w is not None, 'probs': probs is not None, 'topK': topk,
                      'values': values_for(y, pred, probs, w, len(classes), topk)})
    return cases


def main():
    os.makedirs(FIX, exist_ok=True)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    out = {'generator': 'scripts/golden/classification.py', 'sklearn': __import__('sklearn').__version__,
           'random': random_cases(), 'examples': example_cases()}
    with open(OUT, 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')
    print(f'wrote {OUT}: {len(out["random"])} random cases, {len(out["examples"])} example files', file=sys.stderr)


if __name__ == '__main__':
    main()
