#!/usr/bin/env python3
"""Reference numbers for multi-criterion judging, computed independently of the TypeScript code.

Plain Python 3, standard library only. Input: test/fixtures/criteria/cases.jsonl, whose `judge`
field holds the per-criterion scores the fake judge gives each row, and the weights below (as in
test/fixtures/criteria/q.judge).

  overall score     sum(w_c * s_c) / sum(w_c), to 6 decimal places
  integer view      round half away from zero (decimal.ROUND_HALF_UP on the 6-place figure)
  per criterion     the calibration figures of calibration_reference.agreement() over the rows with
                    both q/human_rating/<c> and the judge's score; plus mean |judge - human| and
                    mean (judge - human)
  overall           the same figures for q/human_rating against the integer view
  most disagreement the criterion with the largest mean |judge - human| (ties: larger |mean diff|)

Run from anywhere:  python3 test/reference/criteria_reference.py  -> writes criteria_reference.json
"""
import json
import os
import sys
from decimal import Decimal, ROUND_HALF_UP

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from calibration_reference import agreement  # noqa: E402

CASES = os.path.join(HERE, '..', 'fixtures', 'criteria', 'cases.jsonl')
WEIGHTS = {'accuracy': 0.5, 'clarity': 0.25, 'depth': 0.25}
METRIC = 'q'


def overall(scores):
    total = sum(WEIGHTS.values())
    return round(sum(WEIGHTS[c] / total * scores[c] for c in WEIGHTS), 6)


def half_up(x):
    return int(Decimal(repr(x)).quantize(Decimal('1'), rounding=ROUND_HALF_UP))


def diffs(pairs):
    n = len(pairs)
    if not n:
        return None, None
    return sum(abs(j - h) for h, j in pairs) / n, sum(j - h for h, j in pairs) / n


def main():
    rows = [json.loads(line) for line in open(CASES, encoding='utf-8') if line.strip()]
    out_rows = []
    overall_pairs = []
    per = {c: [] for c in WEIGHTS}
    for r in rows:
        s = overall(r['judge'])
        rounded = half_up(s)
        out_rows.append({'id': r['id'], 'score': s, 'score_rounded': rounded})
        h = r.get(f'{METRIC}/human_rating')
        if h is not None:
            overall_pairs.append((h, rounded))
        for c in WEIGHTS:
            hc = r.get(f'{METRIC}/human_rating/{c}')
            if hc is not None:
                per[c].append((hc, r['judge'][c]))
    criteria = {}
    for c, pairs in per.items():
        figures = agreement(pairs, True)
        mad, md = diffs(pairs)
        figures.update({'mean_abs_diff': mad, 'mean_diff': md})
        del figures['per_class']
        criteria[c] = figures
    most = max(WEIGHTS, key=lambda c: (criteria[c]['mean_abs_diff'], abs(criteria[c]['mean_diff'])))
    ov = agreement(overall_pairs, True)
    del ov['per_class']
    result = {'rows': out_rows, 'overall': ov, 'criteria': criteria, 'most_disagreement': most}
    with open(os.path.join(HERE, 'criteria_reference.json'), 'w', encoding='utf-8') as f:
        json.dump(result, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    main()
