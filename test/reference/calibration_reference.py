#!/usr/bin/env python3
"""Reference numbers for the calibration tests, computed independently of the TypeScript code.

Plain Python 3, standard library only (scipy and scikit-learn are not installable here). Each figure
is a straightforward, slow implementation of the scikit-learn / scipy definition, computed from the
raw (human, judge) pairs rather than from a contingency table:

  balanced accuracy   sklearn.metrics.balanced_accuracy_score: mean recall over classes in y_true
  balanced F1         sklearn.metrics.f1_score(average='weighted'): F1 per class weighted by support;
                      F1 of a class with zero precision and recall is 0
  Cohen's kappa       (p_o - p_e) / (1 - p_e) from observed and chance agreement
  quadratic kappa     1 - sum(w*O) / sum(w*E) with w = (i - j)^2 over label positions, E built from
                      every (human row, judge row) combination, as sklearn's weights='quadratic'
  Spearman rho        Pearson correlation of average ranks (scipy.stats.spearmanr)
  Kendall tau-b       pair counting over all n(n-1)/2 pairs (scipy.stats.kendalltau default)

Undefined figures are None (JSON null). Run from anywhere:
  python3 test/reference/calibration_reference.py   -> writes calibration_reference.json next to it
"""
import csv
import json
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, '..', 'fixtures', 'calibration')

CASES = [
    ('ordinal ratings with ties, a judge-only class, a human-only class and skipped rows', 'pointwise_ordinal.jsonl', 'helpfulness'),
    ('pass/fail labels from a CSV with quoted commas', 'pointwise_binary.csv', 'safe'),
    ('all labels equal', 'all_equal.jsonl', 'polite'),
    ("Vertex AI's example confusion matrix", 'vertex_matrix.jsonl', 'pairwise_fluency'),
    ('pairwise JSON array with length and position bias', 'pairwise_bias.json', 'pref'),
    ('pairwise CSV with passes as JSON text', 'pairwise_passes.csv', 'pref'),
]

DECIMAL = re.compile(r'[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?')
CHOICE = {'A': 'A', 'B': 'B', 'TIE': 'TIE', 'BASELINE': 'A', 'CANDIDATE': 'B', 'SAME': 'TIE', 'MODEL_A': 'A', 'MODEL_B': 'B'}
MISSING, INVALID = object(), object()


# ---------------------------------------------------------------- reading

def read_items(path):
    """Yields dicts for records and None for malformed ones, in file order."""
    if path.endswith('.jsonl'):
        with open(path, encoding='utf-8') as f:
            for line in f.read().splitlines():
                if not line.strip():
                    continue
                try:
                    value = json.loads(line)
                except ValueError:
                    yield None
                    continue
                yield value if isinstance(value, dict) else None
    elif path.endswith('.json'):
        with open(path, encoding='utf-8') as f:
            for value in json.load(f):
                yield value if isinstance(value, dict) else None
    else:
        with open(path, encoding='utf-8', newline='') as f:
            rows = [r for r in csv.reader(f) if r and any(c.strip() for c in r)]
        header = [h.strip() for h in rows[0]]
        for r in rows[1:]:
            yield dict(zip(header, r)) if len(r) == len(header) else None


def blank(v):
    return v is None or (isinstance(v, str) and v.strip() == '')


def rating(v):
    if blank(v):
        return MISSING
    if isinstance(v, bool):
        return INVALID
    if isinstance(v, (int, float)):
        return v if math.isfinite(v) else INVALID
    if isinstance(v, str):
        t = v.strip()
        if DECIMAL.fullmatch(t):
            x = float(t)
            return int(x) if x.is_integer() else x
    return INVALID


def choice(v):
    if blank(v):
        return MISSING
    if not isinstance(v, str):
        return INVALID
    return CHOICE.get(v.strip().upper(), INVALID)


def maybe_json(v):
    if isinstance(v, str) and v.strip()[:1] in ('[', '{'):
        try:
            return json.loads(v)
        except ValueError:
            return v
    return v


def flag(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.strip().lower() in ('true', 'false'):
        return v.strip().lower() == 'true'
    return None


def is_label(x):
    return x is not MISSING and x is not INVALID


# ---------------------------------------------------------------- figures from pairs

def rank(values):
    """Average ranks, 1-based, by counting (O(n^2))."""
    return [1 + sum(1 for w in values if w < v) + (sum(1 for w in values if w == v) - 1) / 2 for v in values]


def pearson(x, y):
    n = len(x)
    if n < 2:
        return None
    mx, my = sum(x) / n, sum(y) / n
    vx = sum((a - mx) ** 2 for a in x)
    vy = sum((b - my) ** 2 for b in y)
    if vx == 0 or vy == 0:
        return None
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / math.sqrt(vx * vy)


def spearman(x, y):
    return pearson(rank(x), rank(y)) if len(x) >= 2 else None


def kendall_tau_b(x, y):
    n = len(x)
    concordant = discordant = tied_x = tied_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0:
                tied_x += 1
            if dy == 0:
                tied_y += 1
            if dx * dy > 0:
                concordant += 1
            elif dx * dy < 0:
                discordant += 1
    pairs = n * (n - 1) / 2
    if pairs - tied_x == 0 or pairs - tied_y == 0:
        return None
    return (concordant - discordant) / math.sqrt((pairs - tied_x) * (pairs - tied_y))


def agreement(pairs, pointwise):
    human = [h for h, _ in pairs]
    judge = [j for _, j in pairs]
    n = len(pairs)
    labels = sorted(set(human) | set(judge))
    out = {
        'n': n,
        'labels': labels,
        'confusion_matrix': [[sum(1 for h, j in pairs if h == a and j == b) for b in labels] for a in labels],
    }
    per_class = []
    for c in labels:
        tp = sum(1 for h, j in pairs if h == c and j == c)
        fp = sum(1 for h, j in pairs if h != c and j == c)
        fn = sum(1 for h, j in pairs if h == c and j != c)
        p = tp / (tp + fp) if tp + fp else None
        r = tp / (tp + fn) if tp + fn else None
        f1 = 2 * (p or 0) * (r or 0) / ((p or 0) + (r or 0)) if (p or 0) + (r or 0) > 0 else 0.0
        per_class.append({'label': c, 'precision': p, 'recall': r, 'f1': f1, 'support': tp + fn, 'predicted': tp + fp})
    out['per_class'] = per_class
    out['accuracy'] = sum(1 for h, j in pairs if h == j) / n if n else None
    recalls = [c['recall'] for c in per_class if c['support'] > 0]
    out['balanced_accuracy'] = sum(recalls) / len(recalls) if recalls else None
    out['balanced_f1'] = sum(c['support'] * c['f1'] for c in per_class) / n if n else None
    if n:
        p_o = out['accuracy']
        p_e = sum((human.count(c) / n) * (judge.count(c) / n) for c in labels)
        out['cohen_kappa'] = (p_o - p_e) / (1 - p_e) if p_e != 1 else None
    else:
        out['cohen_kappa'] = None
    if pointwise:
        pos = {c: i for i, c in enumerate(labels)}
        w = lambda a, b: (pos[a] - pos[b]) ** 2
        observed = sum(w(h, j) for h, j in pairs) / n if n else 0
        expected = sum(w(h, j) for h in human for j in judge) / (n * n) if n else 0
        out['quadratic_weighted_kappa'] = 1 - observed / expected if expected else None
        out['spearman'] = spearman(human, judge)
        out['kendall_tau'] = kendall_tau_b(human, judge) if n else None
    return out


# ---------------------------------------------------------------- one file

def calibrate(path, metric):
    point_cols = (f'{metric}/human_rating', f'{metric}/score')
    pair_cols = (f'{metric}/human_pairwise_choice', f'{metric}/pairwise_choice')
    kind = None
    reasons = {'missing_label': 0, 'judge_error': 0, 'invalid_label': 0, 'unreadable': 0}
    pairs = []
    # bias inputs
    consistent, first_pos, longer, human_longer, length_pref = [], [], [], [], []
    score_len, human_len = [], []
    rules_present, rule_rows = False, []
    for record in read_items(path):
        if record is None:
            reasons['unreadable'] += 1
            continue
        if kind is None:
            if any(c in record for c in point_cols):
                kind = 'pointwise'
            elif any(c in record for c in pair_cols):
                kind = 'pairwise'
            else:
                reasons['missing_label'] += 1
                continue
        hcol, jcol = point_cols if kind == 'pointwise' else pair_cols
        parse = rating if kind == 'pointwise' else choice
        h, j = parse(record.get(hcol)), parse(record.get(jcol))

        rv_col = f'{metric}/rule_violations'
        if rv_col in record:
            rules_present = True
            v = maybe_json(record[rv_col])
            if isinstance(v, list):
                rule_rows.append({e['rule'] for e in v if isinstance(e, dict) and isinstance(e.get('rule'), str) and e['rule']})

        if kind == 'pointwise':
            resp = record.get('response')
            if isinstance(resp, str):
                if is_label(j):
                    score_len.append((j, len(resp)))
                if is_label(h):
                    human_len.append((h, len(resp)))
        else:
            passes = []
            raw = maybe_json(record.get(f'{metric}/passes'))
            for p in raw if isinstance(raw, list) else []:
                if not isinstance(p, dict):
                    continue
                order = p.get('order').strip().upper() if isinstance(p.get('order'), str) else ''
                winner = choice(p.get('winner'))
                if order in ('AB', 'BA') and is_label(winner):
                    passes.append((order, winner))
            for order, winner in passes:
                if winner != 'TIE':
                    shown_first = 'A' if order == 'AB' else 'B'
                    first_pos.append(winner == shown_first)
            ab = [w for o, w in passes if o == 'AB']
            ba = [w for o, w in passes if o == 'BA']
            if ab and ba:
                recorded = flag(record.get(f'{metric}/position_consistent'))
                consistent.append(recorded if recorded is not None else ab[0] == ba[0])
            if isinstance(record.get('response_a'), str) and isinstance(record.get('response_b'), str):
                texts = (record['response_a'], record['response_b'])
            elif isinstance(record.get('baseline_model_response'), str) and isinstance(record.get('response'), str):
                texts = (record['baseline_model_response'], record['response'])
            else:
                texts = None
            if texts:
                la, lb = len(texts[0]), len(texts[1])
                for who, out in ((j, longer), (h, human_longer)):
                    if is_label(who) and la != lb and who != 'TIE':
                        out.append((who == 'A') == (la > lb))
                if is_label(j):
                    length_pref.append((la - lb, {'A': 1, 'TIE': 0, 'B': -1}[j]))

        if is_label(h) and is_label(j):
            pairs.append((h, j))
        elif h is INVALID or j is INVALID:
            reasons['invalid_label'] += 1
        elif j is MISSING and not blank(record.get(f'{metric}/error')):
            reasons['judge_error'] += 1
        else:
            reasons['missing_label'] += 1

    report = {'metric': metric, 'kind': kind, 'skipped': sum(reasons.values()), 'skipped_by_reason': reasons}
    report.update(agreement(pairs, kind == 'pointwise'))

    def rate(flags):
        return {'rate': sum(flags) / len(flags) if flags else None, 'n': len(flags)}

    def corr(xy):
        return {'spearman': spearman([a for a, _ in xy], [b for _, b in xy]), 'n': len(xy)}

    if kind == 'pointwise':
        report['bias'] = {'score_length': corr(score_len), 'human_rating_length': corr(human_len)}
    else:
        report['bias'] = {'position_consistency': rate(consistent), 'first_position': rate(first_pos),
                          'longer_wins': rate(longer), 'human_longer_wins': rate(human_longer),
                          'length_preference': corr(length_pref)}
    if rules_present:
        n = len(rule_rows)
        names = sorted(set().union(*rule_rows)) if rule_rows else []
        with_any = sum(1 for r in rule_rows if r)
        report['rule_violations'] = {
            'rows_with_violations': with_any, 'rate': with_any / n if n else None, 'n': n,
            'by_rule': {name: {'rows': sum(1 for r in rule_rows if name in r),
                               'rate': sum(1 for r in rule_rows if name in r) / n} for name in names},
        }
    return report


def main():
    cases = []
    for name, file, metric in CASES:
        cases.append({'name': name, 'file': file, 'metric': metric, 'expected': calibrate(os.path.join(FIXTURES, file), metric)})
    with open(os.path.join(HERE, 'calibration_reference.json'), 'w', encoding='utf-8') as f:
        json.dump({'generated_by': 'test/reference/calibration_reference.py', 'cases': cases}, f, indent=1, ensure_ascii=False)
        f.write('\n')


if __name__ == '__main__':
    main()
