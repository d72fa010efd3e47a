#!/usr/bin/python3
"""Train a small implicit-feedback factor model on the Debian dependency data of
../ranking-debian-deps and write it as the factor-matrix input of Eval Lens.

  /usr/bin/python3 examples/ranking-factors/_train_factors.py

Data: the train interactions `../ranking-debian-deps/_train.csv` (package "user" -> dependency
"item"), and the held-out relevant items of each package, read from the `relevant` key of
`../ranking-debian-deps/popularity.jsonl` and written here as `_relevant.csv` (user,item).

Model: PureSVD (P. Cremonesi, Y. Koren, R. Turrin, "Performance of recommender algorithms on top-N
recommendation tasks", RecSys 2010, https://doi.org/10.1145/1864708.1864721): the truncated SVD
R ~ P_f S_f Q_f^T of the binary user x item train matrix R, rank f = 32 (fixed in advance, not tuned
on the held-out items). User factors U = P_f S_f (= R Q_f), item factors V = Q_f, so the score of
user u for item i is U[u] . V[i] = (R Q_f Q_f^T)[u, i]. Eval Lens masks each package's train items
and takes the top K.

Writes (float32, C order): U.npy (users x 32), V.npy (items x 32), user_ids.txt and item_ids.txt
(one id per line, line i = row i; users and items sorted by name), _relevant.csv, eval-lens.json.
Deterministic: sorted inputs and LAPACK's dense SVD (no random start); the sign of each singular
pair is fixed so that the largest-magnitude entry of each column of V is positive.
"""
import csv
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, '..', 'ranking-debian-deps')
RANK = 32

with open(os.path.join(SRC, '_train.csv'), newline='') as f:
    pairs = [(r['user'], r['item']) for r in csv.DictReader(f)]
relevant = []
with open(os.path.join(SRC, 'popularity.jsonl')) as f:
    for line in f:
        obj = json.loads(line)
        relevant += [(obj['user'], it) for it in obj['relevant']]

users = sorted({u for u, _ in pairs} | {u for u, _ in relevant})
items = sorted({i for _, i in pairs})
u_index = {u: k for k, u in enumerate(users)}
i_index = {i: k for k, i in enumerate(items)}
R = np.zeros((len(users), len(items)), dtype=np.float64)
for u, i in pairs:
    R[u_index[u], i_index[i]] = 1.0

P, s, Qt = np.linalg.svd(R, full_matrices=False)
Q = Qt[:RANK].T.copy()
# Singular vectors are defined up to sign: fix it so that a re-run gives the same files.
signs = np.sign(Q[np.abs(Q).argmax(axis=0), np.arange(RANK)])
Q *= signs
U = R @ Q  # = P_f S_f with the same signs

np.save(os.path.join(HERE, 'U.npy'), U.astype(np.float32))
np.save(os.path.join(HERE, 'V.npy'), Q.astype(np.float32))
for name, ids in (('user_ids.txt', users), ('item_ids.txt', items)):
    with open(os.path.join(HERE, name), 'w') as f:
        f.write('\n'.join(ids) + '\n')
with open(os.path.join(HERE, '_relevant.csv'), 'w', newline='') as f:
    w = csv.writer(f, lineterminator='\n')
    w.writerow(['user', 'item'])
    w.writerows(sorted(relevant))
config = {
    'task': 'ranking',
    'userFactors': 'U.npy',
    'itemFactors': 'V.npy',
    'userIds': 'user_ids.txt',
    'itemIds': 'item_ids.txt',
    'train': '../ranking-debian-deps/_train.csv',
    'relevant': '_relevant.csv',
    'items': '../ranking-debian-deps/items.csv',
    'k': [5, 10, 20],
    'coldThreshold': 5,
    'mapNormaliser': 'min',
    'gain': 'linear',
    'bootstrap': {'n': 1000, 'seed': 0},
}
with open(os.path.join(HERE, 'eval-lens.json'), 'w') as f:
    json.dump(config, f, indent=2)
    f.write('\n')

explained = float((s[:RANK] ** 2).sum() / (s ** 2).sum())
print(f'{len(users)} users x {len(items)} items, {len(pairs)} train interactions, {len(relevant)} relevant pairs')
print(f'rank {RANK}: {explained:.3f} of the squared Frobenius norm of R')
