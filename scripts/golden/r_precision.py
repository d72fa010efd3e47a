#!/usr/bin/python3
"""Golden R-precision values (docs/metrics/ranking.md), numpy only, by the definition.

Run with Debian's python:  /usr/bin/python3 scripts/golden/r_precision.py

Writes test/golden/r_precision.json: random users (fixed seed), each with a ranked list over 40
items (some ids repeated: a repeat never counts again, its slot stays) and graded relevant items
(grades 0..3; a grade-0 item is not relevant), some of them outside the list, some lists shorter
than the user's number of relevant items. Per user, with R = the number of distinct items of
grade > 0:
  r_precision = |{first occurrences in the top R slots that are relevant}| / R
(a list shorter than R counts its missing slots as misses, as trec_eval's Rprec), and the mean
over the users with R > 0 (users with R = 0 are skipped).
"""
import json
import os

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
OUT = os.path.join(ROOT, 'test', 'golden', 'r_precision.json')
N_ITEMS = 40


def r_precision(ranked, grades):
    relevant = {i for i, g in grades.items() if g > 0}
    R = len(relevant)
    if R == 0:
        return None
    seen = set()
    hits = 0
    for item in ranked[:R]:
        if item in seen:
            continue
        seen.add(item)
        if item in relevant:
            hits += 1
    return hits / R


def main():
    rng = np.random.default_rng(20261128)
    ids = [f"i{k:02d}" for k in range(N_ITEMS)]
    users = []
    for u in range(150):
        L = int(rng.integers(0, 16))
        ranked = [ids[int(k)] for k in rng.integers(0, N_ITEMS, size=L)]  # repeats possible
        n_rel = int(rng.integers(0, 12))
        rel_items = rng.permutation(N_ITEMS)[:n_rel]
        grades = {ids[int(k)]: int(rng.integers(0, 4)) for k in rel_items}
        users.append({'user': f"u{u}", 'ranked': ranked, 'relevant': grades, 'r_precision': r_precision(ranked, grades)})
    defined = [x['r_precision'] for x in users if x['r_precision'] is not None]
    out = {'users': users, 'mean': float(np.mean(defined)), 'evaluated': len(defined)}
    with open(OUT, 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')
    print(f"wrote {OUT}: {len(users)} users, {len(defined)} evaluated, mean {out['mean']:.6f}")


if __name__ == '__main__':
    main()
