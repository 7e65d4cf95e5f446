#!/usr/bin/env python3
"""Reference numbers for the human-review (labels) tests, computed independently of the TypeScript code.

Plain Python 3, standard library only. Written from the definitions, not from the TypeScript:

  row key             sha256 over canonical JSON (sorted keys, no white space; RFC 8785 for the
                      strings and integers used here) of the row's input fields, first 16 hex
  standing labels     the last line per (key, annotator); a null label removes that annotator's label
  majority            the label more annotators gave than any other; a tie at the top gives none
  Cohen's kappa       (p_o - p_e) / (1 - p_e) between two annotators over the keys both labelled
  Krippendorff alpha  Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability": pairable
                      values per unit, the coincidence matrix o_ck, alpha = 1 - (n-1) sum o*d / sum n_c n_k d,
                      with the nominal, ordinal and interval difference functions
  Wilson interval     p~ = (p + z^2/2n) / (1 + z^2/n), half = z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n)
  labels for width    the smallest n whose Wilson width at the observed p is <= w (linear search)
  join                a results row takes the majority label of its key in place of its own human
                      column; accuracy and Cohen's kappa of judge vs those labels

It also writes the fixtures it reads (test/fixtures/labels/), so the keys in them come from here.
Run: python3 test/reference/labels_reference.py  -> writes labels_reference.json next to it
"""
import hashlib
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, '..', 'fixtures', 'labels')
Z = 1.959963984540054

# Krippendorff (2011), section C: 4 observers, 12 units, values 1..5, None where missing.
# Published: nominal 0.743, ordinal 0.815, interval 0.849.
KRIPPENDORFF_2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(',', ':'), ensure_ascii=False)


def row_key(record, fields):
    picked = {f: record[f] for f in fields if f in record}
    return hashlib.sha256(canonical(picked).encode('utf-8')).hexdigest()[:16]


# ---------------------------------------------------------------- alpha

def alpha(units, level):
    """units: list of per-unit value lists (missing already removed)."""
    pairable = [u for u in units if len(u) >= 2]
    values = sorted({v for u in pairable for v in u}, key=lambda v: (isinstance(v, str), v))
    o = {(c, k): 0.0 for c in values for k in values}
    for u in pairable:
        m = len(u)
        for i in range(m):
            for j in range(m):
                if i != j:
                    o[(u[i], u[j])] += 1.0 / (m - 1)
    n_c = {c: sum(o[(c, k)] for k in values) for c in values}
    n = sum(n_c.values())
    if n < 2:
        return None

    def delta(c, k):
        if level == 'nominal':
            return 0.0 if c == k else 1.0
        if level == 'interval':
            return float((c - k) ** 2)
        if c == k:
            return 0.0
        lo, hi = min(c, k), max(c, k)
        between = sum(n_c[g] for g in values if lo <= g <= hi)
        return (between - (n_c[lo] + n_c[hi]) / 2.0) ** 2

    d_o = sum(o[(c, k)] * delta(c, k) for c in values for k in values) / n
    d_e = sum(n_c[c] * n_c[k] * delta(c, k) for c in values for k in values) / (n * (n - 1))
    if d_e == 0:
        return None
    return 1.0 - d_o / d_e


def columns_to_units(observers):
    return [[obs[u] for obs in observers if obs[u] is not None] for u in range(len(observers[0]))]


# ---------------------------------------------------------------- kappa, wilson

def kappa(pairs):
    if not pairs:
        return None
    n = len(pairs)
    labels = sorted({x for p in pairs for x in p}, key=lambda v: (isinstance(v, str), v))
    p_o = sum(1 for a, b in pairs if a == b) / n
    p_e = sum((sum(1 for a, _ in pairs if a == l) / n) * (sum(1 for _, b in pairs if b == l) / n) for l in labels)
    if p_e == 1:
        return None
    return (p_o - p_e) / (1 - p_e)


def wilson(k, n):
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return {'low': max(0.0, centre - half), 'high': min(1.0, centre + half)}


def width(p, n):
    return 2 * Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)


def labels_for_width(k, n, w):
    p = k / n if n else 0.5
    m = 1
    while width(p, m) > w:
        m += 1
    return m


# ---------------------------------------------------------------- fixtures

PROMPTS = [
    ('How many days are in a leap year?', '366.', 5, 5),
    ('Capital of Australia?', 'Sydney.', 1, 3),
    ('Boiling point of water in F?', '100 degrees.', 2, 2),
    ('Reverse a list in Python?', 'my_list[::-1]', 5, 4),
    ('Count lines in a file?', 'wc -l file', 5, 5),
    ('Translate "chat" to English.', 'cat', 4, 4),
    ('What is 2+2?', '5', 1, 2),
    ('Name a prime above 10.', '11', 5, 5),
    ('Largest ocean?', 'Pacific.', 5, 3),
    ('Spell "necessary".', 'neccessary', 1, 1),
]
FIELDS = ['prompt', 'response']
METRIC = 'helpfulness'


def make_fixtures():
    """Results (some lines without _key, one with an older Vertex label) and a labels file with
    relabels, a retraction, a tie, an unknown key, a second metric and a bad line."""
    os.makedirs(FIXTURES, exist_ok=True)
    rows = []
    for i, (prompt, response, human_truth, judge) in enumerate(PROMPTS, start=1):
        record = {'id': f'h{i}', 'prompt': prompt, 'response': response, '_row': i}
        if i % 3 != 0:  # rows 3, 6, 9 come from an older run without _key
            record['_key'] = row_key(record, FIELDS)
        record[f'{METRIC}/score'] = judge
        record[f'{METRIC}/justification'] = f'judge on row {i}'
        if i == 4:
            record[f'{METRIC}/human_rating'] = 2  # an old Vertex label the labels file overrides
        if i == 10:
            record[f'{METRIC}/human_rating'] = 1  # kept: no label in the labels file
        rows.append(record)
    with open(os.path.join(FIXTURES, 'results.jsonl'), 'w', encoding='utf-8') as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + '\n')

    keys = [row_key(r, FIELDS) for r in rows]
    t = '2024-05-01T10:00:00.000Z'
    lines = []

    def add(i, label, annotator, **extra):
        line = {'_key': keys[i - 1], 'metric': METRIC, 'label': label, 'annotator': annotator, 'time': t, 'comment': ''}
        line.update(extra)
        lines.append(json.dumps(line, ensure_ascii=False))

    add(1, 5, 'alice', fields=FIELDS)
    add(1, 5, 'bob')
    add(2, 3, 'alice')
    add(2, 1, 'alice')          # relabel: 1 stands for alice
    add(2, 1, 'bob')
    add(2, 3, 'carol')          # majority 1 (2 of 3)
    add(3, 2, 'alice')
    add(3, 3, 'bob')            # tie 2 vs 3: no human label
    add(4, 4, 'alice')
    add(4, 5, 'bob')
    add(4, 5, 'bob', comment='on reflection')
    add(4, 4, 'carol')          # 4 vs 5 vs 4: majority 4
    add(5, 5, 'alice')
    add(5, None, 'alice')       # retraction: alice has no label on row 5
    add(5, 4, 'bob')            # only bob: 4
    add(6, 4, 'carol')
    add(7, 1, 'alice')
    add(7, 2, 'bob')
    add(7, 1, 'carol')
    add(8, 5, 'bob')
    add(9, 5, 'alice')
    add(9, 5, 'bob')
    add(9, 4, 'carol')
    lines.append(json.dumps({'_key': '00000000deadbeef', 'metric': METRIC, 'label': 3, 'annotator': 'alice', 'time': t, 'comment': ''}))
    lines.append(json.dumps({'_key': keys[0], 'metric': 'other_metric', 'label': 'A', 'annotator': 'alice', 'time': t, 'comment': ''}))
    lines.append('{"_key": "not-a-key", "metric": "helpfulness", "label": 3, "annotator": "x", "time": ""}')
    with open(os.path.join(FIXTURES, 'labels.jsonl'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')
    return rows, keys


def read_labels():
    lines = []
    with open(os.path.join(FIXTURES, 'labels.jsonl'), encoding='utf-8') as f:
        for raw in f:
            value = json.loads(raw)
            if len(value['_key']) != 16:
                continue
            lines.append(value)
    return lines


def standing(lines, metric):
    out = {}
    for l in lines:
        if l['metric'] != metric:
            continue
        per = out.setdefault(l['_key'], {})
        per.pop(l['annotator'], None)
        if l['label'] is not None:
            per[l['annotator']] = l['label']
    return {k: v for k, v in out.items() if v}


def majority_of(per):
    counts = {}
    for v in per.values():
        counts[v] = counts.get(v, 0) + 1
    top = max(counts.values())
    winners = [v for v, c in counts.items() if c == top]
    return winners[0] if len(winners) == 1 else None


def main():
    rows, keys = make_fixtures()
    lines = read_labels()
    current = standing(lines, METRIC)
    majorities = {k: majority_of(per) for k, per in current.items()}
    human = {k: v for k, v in majorities.items() if v is not None}
    tied = sum(1 for v in majorities.values() if v is None)
    annotators = sorted({a for per in current.values() for a in per})
    units = [[per[a] for a in annotators if a in per] for per in current.values()]

    # Two annotators only (alice and bob), for Cohen's kappa.
    pairs = [(per['alice'], per['bob']) for per in current.values() if 'alice' in per and 'bob' in per]

    # Join: judge vs human, where the human label is the labels file's majority, else the row's own column.
    joined = []
    for r in rows:
        label = human.get(keys[r['_row'] - 1])
        if label is None:
            label = r.get(f'{METRIC}/human_rating')
        if label is not None:
            joined.append((label, r[f'{METRIC}/score']))
    join = {
        'n': len(joined),
        'accuracy': sum(1 for h, j in joined if h == j) / len(joined),
        'cohen_kappa': kappa(joined),
        'pairs': [[h, j] for h, j in joined],
    }

    k2011 = columns_to_units(KRIPPENDORFF_2011)
    out = {
        'generated_by': 'test/reference/labels_reference.py',
        'row_keys': [{'record': {f: r[f] for f in FIELDS}, 'key': keys[i]} for i, r in enumerate(rows[:3])],
        'krippendorff_2011': {
            'data': KRIPPENDORFF_2011,
            'nominal': alpha(k2011, 'nominal'),
            'ordinal': alpha(k2011, 'ordinal'),
            'interval': alpha(k2011, 'interval'),
        },
        'labels': {
            'metric': METRIC,
            'majority': {k: human[k] for k in sorted(human)},
            'tied': tied,
            'annotators': annotators,
            'alpha_nominal': alpha(units, 'nominal'),
            'alpha_ordinal': alpha(units, 'ordinal'),
            'alpha_interval': alpha(units, 'interval'),
            'units': sum(1 for u in units if len(u) >= 2),
        },
        'kappa_alice_bob': {'pairs': [list(p) for p in pairs], 'kappa': kappa(pairs)},
        'join': join,
        'wilson': [{'k': k, 'n': n, **wilson(k, n)} for k, n in [(7, 10), (0, 5), (20, 20), (45, 60), (1, 1)]],
        'labels_for_width': [{'k': k, 'n': n, 'width': w, 'total': labels_for_width(k, n, w)} for k, n, w in [(7, 10, 0.2), (0, 0, 0.2), (45, 60, 0.1), (10, 10, 0.3)]],
    }
    with open(os.path.join(HERE, 'labels_reference.json'), 'w', encoding='utf-8') as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write('\n')


if __name__ == '__main__':
    main()
