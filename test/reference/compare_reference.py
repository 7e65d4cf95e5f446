#!/usr/bin/env python3
"""Reference numbers for `judge-studio compare`, computed independently of the TypeScript code.

Plain Python 3, standard library only. It writes the fixtures (deterministically, from a seeded
random.Random) and then recomputes every figure from its definition on the raw rows:

  pairing             last line per _row stands; rows paired by _row; inputs are the columns
                      without "/" that do not start with "_"
  agreement           share of paired rows (both verdicts present) with equal verdicts
  Cohen's kappa       (p_o - p_e) / (1 - p_e) between run A and run B, as sklearn cohen_kappa_score
  McNemar exact       statsmodels mcnemar(table, exact=True): binomial two-sided on the discordant
                      counts b, c: p = min(1, 2 * P(X <= min(b, c))), X ~ Binom(b + c, 1/2), computed
                      exactly with integers (math.comb) and fractions
  calibration figures the independent implementation in calibration_reference.py, per side, on the
                      rows that have a human label and both verdicts
  bootstrap CI        mulberry32 (seed 20240229) reimplemented with 32-bit masks, 2000 resamples of
                      row indices floor(u * n), balanced accuracy (mean recall over the human classes
                      in the resample) of B minus A, numpy-style linear percentiles 2.5 and 97.5

Run from anywhere:  python3 test/reference/compare_reference.py
"""
import hashlib
import json
import math
import os
import random
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from calibration_reference import MISSING, INVALID, agreement, choice, rating, read_items  # noqa: E402

FIXTURES = os.path.join(HERE, '..', 'fixtures', 'compare')
SEED, RESAMPLES = 20240229, 2000
MCNEMAR_TABLES = [(0, 0), (1, 0), (3, 3), (5, 1), (10, 3), (25, 10), (60, 40), (300, 250), (2000, 1900)]


# ---------------------------------------------------------------- fixtures

def write_jsonl(name, rows):
    os.makedirs(FIXTURES, exist_ok=True)
    with open(os.path.join(FIXTURES, name), 'w', encoding='utf-8') as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + '\n')


def noisy(rng, h, p_exact):
    if rng.random() < p_exact:
        return h
    return max(1, min(5, h + rng.choice([-2, -1, 1, 2])))


def make_pointwise():
    rng = random.Random(7)
    m = 'helpfulness'
    hash_a = hashlib.sha256(b'template A').hexdigest()[:12]
    hash_b = hashlib.sha256(b'template B').hexdigest()[:12]
    a_rows, b_rows = [], []
    for i in range(1, 61):
        human = rng.randint(1, 5)
        base = {'prompt': f'question {i}', 'response': f'answer {i} ' + 'x' * rng.randint(0, 40)}
        a = {**base, '_row': i, f'{m}/score': noisy(rng, human, 0.5), f'{m}/justification': f'A on {i}', f'{m}/template_hash': hash_a}
        b = {**base, '_row': i, f'{m}/score': noisy(rng, human, 0.75), f'{m}/justification': f'B on {i}', f'{m}/template_hash': hash_b}
        if i < 50:
            a[f'{m}/human_rating'] = human
        if 50 <= i <= 55:
            b[f'{m}/human_rating'] = str(human)  # a CSV-style string label, only in B
        if i == 10:
            b[f'{m}/human_rating'] = 1 if human != 1 else 2  # conflicts with A's label; A's wins
        if i == 17:
            b[f'{m}/score'] = None
            b[f'{m}/error'] = 'the reply did not validate'
            b[f'{m}/error_kind'] = 'invalid-reply'
        if i == 5:
            b_rows.append({**b, f'{m}/score': 1 if b[f'{m}/score'] != 1 else 2})  # replaced by the resumed line below
        a_rows.append(a)
        b_rows.append(b)
    a_rows.append({'prompt': 'question 61', 'response': 'only in A', '_row': 61, f'{m}/score': 3})
    rng.shuffle(b_rows)  # completion order is not row order
    write_jsonl('pointwise_a.results.jsonl', a_rows)
    write_jsonl('pointwise_b.results.jsonl', b_rows)


def make_pairwise():
    rng = random.Random(11)
    spell = {'A': ['A', 'a', 'BASELINE'], 'B': ['B', 'CANDIDATE', 'model_B'], 'TIE': ['TIE', 'SAME', 'tie']}
    a_rows, b_rows = [], []
    for i in range(1, 49):
        human = rng.choice(['A', 'B', 'B', 'TIE'])
        base = {'prompt': f'p{i}', 'response_a': 'a' * rng.randint(1, 30), 'response_b': 'b' * rng.randint(1, 30)}
        va = human if rng.random() < 0.55 else rng.choice(['A', 'B', 'TIE'])
        vb = human if rng.random() < 0.7 else rng.choice(['A', 'B', 'TIE'])
        a = {**base, '_row': i, 'pref/pairwise_choice': va, 'pref/human_pairwise_choice': rng.choice(spell[human])}
        b = {**base, '_row': i, 'pref_v2/pairwise_choice': vb, 'pref_v2/human_pairwise_choice': human}
        a_rows.append(a)
        b_rows.append(b)
    write_jsonl('pairwise_a.results.jsonl', a_rows)
    write_jsonl('pairwise_b.results.jsonl', b_rows)


# ---------------------------------------------------------------- definitions

def latest(path):
    rows = {}
    for r in read_items(path):
        if r is not None and isinstance(r.get('_row'), int) and r['_row'] >= 1:
            rows[r['_row']] = r  # the last line per _row stands
    return rows


def inputs(r):
    return {k: v for k, v in r.items() if '/' not in k and not k.startswith('_')}


def label(v, pointwise):
    x = rating(v) if pointwise else choice(v)
    return None if x is MISSING or x is INVALID else x


def mcnemar_exact(b, c):
    n, k = b + c, min(b, c)
    tail = Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2 ** n)
    return float(min(Fraction(1), 2 * tail))


def mulberry32(seed):
    state = [seed & 0xFFFFFFFF]

    def imul(x, y):
        return (x * y) & 0xFFFFFFFF

    def nxt():
        state[0] = (state[0] + 0x6D2B79F5) & 0xFFFFFFFF
        a = state[0]
        t = imul(a ^ (a >> 15), 1 | a)
        t = ((t + imul(t ^ (t >> 7), 61 | t)) & 0xFFFFFFFF) ^ t
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296
    return nxt


def balanced_accuracy(human, judge):
    classes = sorted(set(human))
    recalls = []
    for c in classes:
        idx = [i for i, h in enumerate(human) if h == c]
        recalls.append(sum(1 for i in idx if judge[i] == c) / len(idx))
    return sum(recalls) / len(recalls)


def np_percentile(sorted_values, q):
    pos = (len(sorted_values) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def bootstrap_ba(human, a, b):
    rand = mulberry32(SEED)
    n = len(human)
    deltas = []
    for _ in range(RESAMPLES):
        idx = [math.floor(rand() * n) for _ in range(n)]
        hs = [human[i] for i in idx]
        deltas.append(balanced_accuracy(hs, [b[i] for i in idx]) - balanced_accuracy(hs, [a[i] for i in idx]))
    deltas.sort()
    return [np_percentile(deltas, 2.5), np_percentile(deltas, 97.5)]


FIGURES = ['accuracy', 'balanced_accuracy', 'balanced_f1', 'cohen_kappa', 'quadratic_weighted_kappa', 'spearman', 'kendall_tau']


def compare(file_a, file_b, metric_a, metric_b):
    ra, rb = latest(os.path.join(FIXTURES, file_a)), latest(os.path.join(FIXTURES, file_b))
    first = next(iter(ra.values()))
    pointwise = f'{metric_a}/score' in first
    judge_a = f'{metric_a}/score' if pointwise else f'{metric_a}/pairwise_choice'
    judge_b = f'{metric_b}/score' if pointwise else f'{metric_b}/pairwise_choice'
    human_a = f'{metric_a}/human_rating' if pointwise else f'{metric_a}/human_pairwise_choice'
    human_b = f'{metric_b}/human_rating' if pointwise else f'{metric_b}/human_pairwise_choice'
    verdicts, labelled = [], []
    for row in sorted(set(ra) & set(rb)):
        x, y = ra[row], rb[row]
        assert inputs(x) == inputs(y), row
        va, vb = label(x.get(judge_a), pointwise), label(y.get(judge_b), pointwise)
        if va is None or vb is None:
            continue
        verdicts.append((row, va, vb))
        h = label(x.get(human_a), pointwise)
        if h is None:
            h = label(y.get(human_b), pointwise)
        if h is not None:
            labelled.append((h, va, vb))
    n = len(verdicts)
    between = agreement([(a, b) for _, a, b in verdicts], pointwise)
    flips = [{'row': r, 'a': a, 'b': b} for r, a, b in verdicts if a != b]
    out = {
        'n': n,
        'agreement': sum(1 for _, a, b in verdicts if a == b) / n,
        'cohen_kappa': between['cohen_kappa'],
        'flipped': len(flips),
        'flips': flips,
        'mean_shift': (sum(b for _, _, b in verdicts) - sum(a for _, a, _ in verdicts)) / n if pointwise else None,
    }
    fa = agreement([(h, a) for h, a, _ in labelled], pointwise)
    fb = agreement([(h, b) for h, _, b in labelled], pointwise)
    names = [f for f in FIGURES if f in fa]
    a_fig = {f: fa[f] for f in names}
    b_fig = {f: fb[f] for f in names}
    delta = {f: (None if a_fig[f] is None or b_fig[f] is None else b_fig[f] - a_fig[f]) for f in names}
    only_a = sum(1 for h, a, b in labelled if a == h and b != h)
    only_b = sum(1 for h, a, b in labelled if b == h and a != h)
    hs = [h for h, _, _ in labelled]
    out['human'] = {
        'a': a_fig,
        'b': b_fig,
        'delta': delta,
        'mcnemar_p': mcnemar_exact(only_a, only_b),
        'balanced_accuracy_ci': bootstrap_ba(hs, [a for _, a, _ in labelled], [b for _, _, b in labelled]),
    }
    return out


def main():
    make_pointwise()
    make_pairwise()
    rand = mulberry32(SEED)
    ref = {
        'generated_by': 'test/reference/compare_reference.py',
        'mulberry32_first_5': [rand() for _ in range(5)],
        'mcnemar': [{'b': b, 'c': c, 'p': mcnemar_exact(b, c)} for b, c in MCNEMAR_TABLES],
        'cases': [
            {'name': 'pointwise with a failed row, a resumed row, a conflicting label and labels only in B',
             'a': 'pointwise_a.results.jsonl', 'b': 'pointwise_b.results.jsonl', 'metric': 'helpfulness', 'metric_b': 'helpfulness',
             'expected': compare('pointwise_a.results.jsonl', 'pointwise_b.results.jsonl', 'helpfulness', 'helpfulness')},
            {'name': 'pairwise with Vertex spellings and a renamed metric',
             'a': 'pairwise_a.results.jsonl', 'b': 'pairwise_b.results.jsonl', 'metric': 'pref', 'metric_b': 'pref_v2',
             'expected': compare('pairwise_a.results.jsonl', 'pairwise_b.results.jsonl', 'pref', 'pref_v2')},
        ],
    }
    with open(os.path.join(HERE, 'compare_reference.json'), 'w', encoding='utf-8') as f:
        json.dump(ref, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    main()
