#!/usr/bin/env python3
"""Reference numbers for the panel-of-judges calibration, computed independently of the TypeScript.

Plain Python 3, standard library only, written from the definitions:

  Krippendorff alpha  Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability": units are
                      results rows, coders are judges, a failed judge is a missing value; units with
                      fewer than two values are not pairable. Coincidence matrix o_ck, then
                      alpha = 1 - (n - 1) * sum(o_ck * d_ck) / sum(n_c * n_k * d_ck), nominal, ordinal
                      and interval differences.
  Fleiss' kappa       as statsmodels.stats.inter_rater.fleiss_kappa(table, method='fleiss') over the
                      rows every judge answered: table = subjects x categories (the categories used,
                      as aggregate_raters makes them); p_cat = column sums / total;
                      p_rat = (sum_j n_ij^2 - n) / (n (n - 1)); kappa = (mean p_rat - sum p_cat^2) /
                      (1 - sum p_cat^2). Checked on Fleiss (1971)'s table as given on Wikipedia: 0.210.
  Cohen's kappa       (p_o - p_e) / (1 - p_e) for each pair of judges over the rows both answered;
                      quadratic weights as scikit-learn (w_ij = (i - j)^2 over label indices).
  per judge           accuracy, Cohen's kappa (and quadratic weighted kappa for pointwise) of each
                      judge's verdicts against the human labels, over rows with both.
  error correlation   Pearson correlation, for each pair of judges, of their errors on labelled rows
                      both answered (pointwise: score - human; pairwise: 1 if verdict != human else
                      0); pairs with zero variance are left out; mean over pairs = rho; effective
                      judges = k / (1 + (k - 1) rho).
  stability           mean flip_rate over rows that have one; least stable rows by flip_rate desc,
                      then row asc, flip_rate > 0, at most 10.

It also writes the fixtures it reads (test/fixtures/panel/), from a fixed-seed generator.
Run: python3 test/reference/panel_reference.py  -> writes panel_reference.json next to it
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, '..', 'fixtures', 'panel')

KRIPPENDORFF_2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]

# Fleiss (1971) as tabulated on Wikipedia's "Fleiss' kappa" page: 10 subjects, 14 raters, 5 categories.
FLEISS_1971 = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]


class Rng:
    """A small linear congruential generator, so the fixtures are the same on every machine."""

    def __init__(self, seed):
        self.state = seed

    def next(self):
        self.state = (self.state * 1103515245 + 12345) % (2 ** 31)
        return self.state / 2 ** 31

    def choice(self, items):
        return items[int(self.next() * len(items))]


def sort_key(v):
    return (isinstance(v, str), v)


def alpha(units, level):
    pairable = [[v for v in u if v is not None] for u in units]
    pairable = [u for u in pairable if len(u) >= 2]
    values = sorted({v for u in pairable for v in u}, key=sort_key)
    if not values:
        return None
    o = {(c, k): 0.0 for c in values for k in values}
    for u in pairable:
        m = len(u)
        for i in range(m):
            for j in range(m):
                if i != j:
                    o[(u[i], u[j])] += 1.0 / (m - 1)
    nc = {c: sum(o[(c, k)] for k in values) for c in values}
    n = sum(nc.values())

    def delta(c, k):
        if level == 'nominal':
            return 0.0 if c == k else 1.0
        if level == 'interval':
            return float((c - k) ** 2)
        if c == k:
            return 0.0
        lo, hi = sorted([values.index(c), values.index(k)])
        s = sum(nc[values[g]] for g in range(lo, hi + 1))
        return (s - (nc[values[lo]] + nc[values[hi]]) / 2.0) ** 2

    d_o = sum(o[(c, k)] * delta(c, k) for c in values for k in values)
    d_e = sum(nc[c] * nc[k] * delta(c, k) for c in values for k in values)
    if d_e == 0:
        return None
    return 1.0 - (n - 1) * d_o / d_e


def fleiss(table):
    if not table:
        return None
    n = sum(table[0])
    if n < 2 or any(sum(r) != n for r in table):
        return None
    total = float(n * len(table))
    p_cat = [sum(r[j] for r in table) / total for j in range(len(table[0]))]
    p_rat = [(sum(x * x for x in r) - n) / float(n * (n - 1)) for r in table]
    p_mean = sum(p_rat) / len(p_rat)
    p_exp = sum(p * p for p in p_cat)
    if p_exp == 1:
        return None
    return (p_mean - p_exp) / (1 - p_exp)


def aggregate(rows):
    cats = sorted({v for r in rows for v in r}, key=sort_key)
    return [[sum(1 for v in r if v == c) for c in cats] for r in rows]


def kappa(pairs, quadratic=False):
    if not pairs:
        return None
    labels = sorted({v for p in pairs for v in p}, key=sort_key)
    idx = {v: i for i, v in enumerate(labels)}
    k = len(labels)
    m = [[0.0] * k for _ in range(k)]
    for a, b in pairs:
        m[idx[a]][idx[b]] += 1
    total = float(len(pairs))
    rows = [sum(m[i]) for i in range(k)]
    cols = [sum(m[i][j] for i in range(k)) for j in range(k)]

    def w(i, j):
        return float((i - j) ** 2) if quadratic else (0.0 if i == j else 1.0)

    obs = sum(w(i, j) * m[i][j] for i in range(k) for j in range(k))
    exp = sum(w(i, j) * rows[i] * cols[j] / total for i in range(k) for j in range(k))
    if exp == 0:
        return None
    return 1.0 - obs / exp


def pearson(xs, ys):
    n = len(xs)
    if n < 2:
        return None
    mx = sum(xs) / n
    my = sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def make_fixture(kind, rng, n_rows, judges, metric):
    """Rows whose judges mostly follow the human label, sometimes err, sometimes fail."""
    lines = []
    values = [1, 2, 3, 4, 5] if kind == 'pointwise' else ['A', 'B', 'TIE']
    for row in range(1, n_rows + 1):
        truth = rng.choice(values)
        human = None if rng.next() < 0.1 else truth
        shared_error = rng.next() < 0.25  # correlated mistakes: several judges err together
        shifted = rng.choice(values)
        entries = []
        for j in judges:
            r = rng.next()
            if r < 0.08:
                entries.append({'judge': j, 'verdict': None, 'confidence': None, 'position_consistent': None, 'error_kind': 'timeout'})
                continue
            if shared_error and rng.next() < 0.7:
                verdict = shifted
            elif rng.next() < 0.2:
                verdict = rng.choice(values)
            else:
                verdict = truth
            entries.append({'judge': j, 'verdict': verdict, 'confidence': 0.8, 'position_consistent': True, 'error_kind': None})
        line = {'_row': row, 'id': 'r%d' % row}
        line[metric + ('/human_rating' if kind == 'pointwise' else '/human_pairwise_choice')] = human
        answered = [e['verdict'] for e in entries if e['verdict'] is not None]
        # The panel's own verdict column only needs to be a verdict for the main report.
        verdict = answered[0] if answered else None
        line[metric + ('/score' if kind == 'pointwise' else '/pairwise_choice')] = verdict
        line[metric + '/judges'] = entries
        if row % 3 == 0:
            line[metric + '/flip_rate'] = round(rng.next() * 0.6, 6) if row % 2 else 0.0
            if kind == 'pointwise':
                line[metric + '/score_sd'] = round(rng.next(), 6)
        lines.append(line)
    return lines


def figures(kind, lines, metric):
    judges = []
    for l in lines:
        for e in l[metric + '/judges']:
            if e['judge'] not in judges:
                judges.append(e['judge'])
    k = len(judges)
    human_col = metric + ('/human_rating' if kind == 'pointwise' else '/human_pairwise_choice')
    table = []
    humans = []
    for l in lines:
        by = {e['judge']: e['verdict'] for e in l[metric + '/judges']}
        table.append([by.get(j) for j in judges])
        humans.append(l.get(human_col))
    out = {'judges': judges, 'rows': len(lines)}
    out['alpha_units'] = sum(1 for u in table if sum(1 for v in u if v is not None) >= 2)
    out['krippendorff_alpha'] = {'nominal': alpha(table, 'nominal')}
    if kind == 'pointwise':
        out['krippendorff_alpha']['ordinal'] = alpha(table, 'ordinal')
        out['krippendorff_alpha']['interval'] = alpha(table, 'interval')
    complete = [u for u in table if all(v is not None for v in u)]
    out['fleiss_kappa'] = fleiss(aggregate(complete))
    out['fleiss_n'] = len(complete)
    out['cohen_kappa'] = []
    out['cohen_n'] = []
    for i in range(k):
        out['cohen_kappa'].append([])
        out['cohen_n'].append([])
        for j in range(k):
            pairs = [(u[i], u[j]) for u in table if u[i] is not None and u[j] is not None]
            out['cohen_kappa'][i].append(kappa(pairs))
            out['cohen_n'][i].append(len(pairs))
    per = []
    for i, j in enumerate(judges):
        pairs = [(h, u[i]) for h, u in zip(humans, table) if h is not None and u[i] is not None]
        fig = {'judge': j, 'n': len(pairs), 'accuracy': sum(1 for a, b in pairs if a == b) / float(len(pairs)) if pairs else None,
               'cohen_kappa': kappa(pairs)}
        if kind == 'pointwise':
            fig['quadratic_weighted_kappa'] = kappa(pairs, quadratic=True)
        per.append(fig)
    out['per_judge'] = per
    errors = []
    for h, u in zip(humans, table):
        if h is None:
            continue
        if kind == 'pointwise':
            errors.append([None if v is None else v - h for v in u])
        else:
            errors.append([None if v is None else (0 if v == h else 1) for v in u])
    rs = []
    for i in range(k):
        for j in range(i + 1, k):
            both = [e for e in errors if e[i] is not None and e[j] is not None]
            r = pearson([e[i] for e in both], [e[j] for e in both])
            if r is not None:
                rs.append(r)
    rho = sum(rs) / len(rs) if rs else None
    out['error_correlation'] = rho
    out['error_pairs'] = len(rs)
    out['effective_judges'] = None if rho is None or 1 + (k - 1) * rho <= 0 else k / (1 + (k - 1) * rho)
    flips = [(l['_row'], l[metric + '/flip_rate']) for l in lines if metric + '/flip_rate' in l]
    out['stability'] = {
        'rows': len(flips),
        'mean_flip_rate': sum(f for _, f in flips) / len(flips) if flips else None,
        'least_stable_rows': [r for r, f in sorted([x for x in flips if x[1] > 0], key=lambda x: (-x[1], x[0]))[:10]],
    }
    return out


def main():
    os.makedirs(FIXTURES, exist_ok=True)
    result = {}
    units = [[KRIPPENDORFF_2011[c][u] for c in range(4)] for u in range(12)]
    result['krippendorff_2011'] = {lvl: alpha(units, lvl) for lvl in ('nominal', 'ordinal', 'interval')}
    result['fleiss_1971'] = {'table': FLEISS_1971, 'kappa': fleiss(FLEISS_1971)}
    specs = [
        ('pointwise', 'quality', ['llama3', 'qwen2', 'mistral', 'gemma2'], 11),
        ('pairwise', 'pref', ['llama3', 'qwen2', 'phi3'], 23),
    ]
    for kind, metric, judges, seed in specs:
        lines = make_fixture(kind, Rng(seed), 60, judges, metric)
        name = '%s.results.jsonl' % kind
        with open(os.path.join(FIXTURES, name), 'w') as f:
            for l in lines:
                f.write(json.dumps(l) + '\n')
        result[kind] = {'file': 'test/fixtures/panel/' + name, 'metric': metric, 'figures': figures(kind, lines, metric)}
    with open(os.path.join(HERE, 'panel_reference.json'), 'w') as f:
        json.dump(result, f, indent=1)
        f.write('\n')
    print(json.dumps({k: v for k, v in result.items() if k.startswith(('krip', 'fleiss'))}))


if __name__ == '__main__':
    main()
