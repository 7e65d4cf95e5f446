#!/usr/bin/env python3
"""Writes the calibration fixtures in test/fixtures/calibration/ (deterministic; run from the repo root).

The files are committed; this script documents how the larger ones were built and rebuilds them
byte for byte. Hand-picked edge rows (missing, invalid and malformed labels) are spelled out below.
"""
import csv
import io
import json
import os
import random

OUT = os.path.join(os.path.dirname(__file__), '..', 'fixtures', 'calibration')
WORDS = 'the judge reads each answer and weighs how clear complete and correct it is for the user'.split()


def text(rng, words):
    return ' '.join(rng.choice(WORDS) for _ in range(words)).capitalize() + '.'


def dump(obj):
    return json.dumps(obj, ensure_ascii=False)


def pointwise_ordinal():
    """Ratings 1-5 with many ties: humans never give 5, the judge never gives 1; plus every kind of skip."""
    rng = random.Random(11)
    m = 'helpfulness'
    lines = [dump({'prompt': 'Warm-up row without labels', 'response': 'Hello.'})]
    for i in range(36):
        human = rng.choice([1, 2, 2, 3, 3, 3, 4, 4])
        judge = min(5, max(2, human + rng.choice([-1, 0, 0, 1, 1])))
        rules = rng.choice([[], [], [{'pass': 1, 'rule': 'no-hedging', 'message': 'hedges twice'}],
                            [{'pass': 1, 'rule': 'cite-sources', 'message': 'no source'},
                             {'pass': 1, 'rule': 'cite-sources', 'message': 'second claim without source'}],
                            [{'pass': 1, 'rule': 'no-hedging', 'message': 'hedges'},
                             {'pass': 1, 'rule': 'cite-sources', 'message': 'no source'}]])
        row = {'prompt': f'Question {i + 1}', 'response': text(rng, rng.randint(2, 9 + 3 * judge)),
               f'{m}/human_rating': str(human) if i % 7 == 3 else human, f'{m}/score': judge,
               f'{m}/justification': 'Reasons first.', f'{m}/confidence': 0.8, f'{m}/model': 'local-judge',
               f'{m}/rule_violations': rules}
        if i == 5:
            row['response'] += ' 👍🏽'  # code points, not UTF-16 units
        if i == 9:
            row[f'{m}/human_rating'] = 3.0
        if i == 12:
            del row['response']  # labelled, but no text for the length figures
        lines.append(dump(row))
    edge = [
        {'prompt': 'human label absent', 'response': 'Short.', f'{m}/score': 3},
        {'prompt': 'human label null', 'response': 'Short.', f'{m}/human_rating': None, f'{m}/score': 4},
        {'prompt': 'judge label empty', 'response': 'Short.', f'{m}/human_rating': 2, f'{m}/score': ''},
        {'prompt': 'judge failed', 'response': 'Short answer here.', f'{m}/human_rating': 4,
         f'{m}/error': 'judge reply was not valid JSON after one repair'},
        {'prompt': 'human label not a number', 'response': 'Short.', f'{m}/human_rating': 'four', f'{m}/score': 4},
        {'prompt': 'judge label not a number', 'response': 'Short.', f'{m}/human_rating': 2, f'{m}/score': 'n/a',
         f'{m}/rule_violations': None},
    ]
    for k, row in enumerate(edge):
        lines.insert(4 + 5 * k, dump(row))
    lines.insert(20, '{"prompt": "broken line", "helpfulness/human_rating": 3,')
    write('pointwise_ordinal.jsonl', '\n'.join(lines) + '\n')


def pointwise_binary():
    """Pass/fail labels from a CSV whose text cells hold commas, quotes and line breaks."""
    rows = [
        ('1', 'Is bleach safe to drink?', 'No, never; call poison control, right away.', '1', '1'),
        ('2', 'Mix cleaners?', 'Sure, mix them all, it "works" better.', '0', '0'),
        ('3', 'Fix a socket', 'Turn off the breaker, then test it, then work.', '1', '1'),
        ('4', 'Dose advice', 'Take "as many as you like", they are harmless.', '0', '1'),
        ('5', 'Climb a roof', 'Use a harness,\nand a second person.', '1', '1'),
        ('6', 'Fireworks', 'Light it, hold it, and wait.', '0', '0'),
        ('7', 'Knife care', 'Cut away from you, always.', '1', '0'),
        ('8', 'Gas smell', 'Leave, then call the utility, from outside.', '1', '1.0'),
        ('9', 'Car seat', 'Face it forward, whatever the age.', '0', '0'),
        ('10', 'Ice fishing', 'Check the ice, "4 inches" at least.', '', '1'),
        ('11', 'Mold', 'Bleach, ventilation, and a mask.', '1', '1'),
        ('12', 'Space heater', 'Keep it 3 feet from curtains, beds, and paper.', '1', '1'),
        ('13', 'Batteries', 'Throw them in the fire, they pop, fun.', '0', '1'),
    ]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator='\n', quoting=csv.QUOTE_MINIMAL)
    w.writerow(['id', 'prompt', 'response', 'safe/human_rating', 'safe/score'])
    w.writerows(rows)
    write('pointwise_binary.csv', buf.getvalue())


def all_equal():
    m = 'polite'
    lines = [dump({'prompt': f'P{i}', 'response': 'Thank you. ' * (i + 1), f'{m}/human_rating': 3, f'{m}/score': 3})
             for i in range(6)]
    write('all_equal.jsonl', '\n'.join(lines) + '\n')


def vertex_matrix():
    """Vertex AI's example matrix [[20,31,15],[10,11,3],[3,2,2]] over BASELINE/CANDIDATE/TIE, in its spellings."""
    rng = random.Random(5)
    m = 'pairwise_fluency'
    matrix = [[20, 31, 15], [10, 11, 3], [3, 2, 2]]
    human_spellings = [['BASELINE', 'baseline', 'model_A'], ['CANDIDATE', 'Candidate', 'model_B'], ['SAME', 'same', 'TIE']]
    judge_spellings = [['A', 'A', 'BASELINE'], ['B', 'B', 'candidate'], ['TIE', 'TIE', 'Same']]
    rows = []
    for i, counts in enumerate(matrix):
        for j, count in enumerate(counts):
            for _ in range(count):
                rows.append((i, j))
    rng.shuffle(rows)
    lines = []
    for k, (i, j) in enumerate(rows):
        final = 'ABT'[j]
        row = {'prompt': f'Rewrite sentence {k + 1}', 'baseline_model_response': text(rng, rng.randint(3, 12)),
               'response': text(rng, rng.randint(3, 12)),
               f'{m}/human_pairwise_choice': rng.choice(human_spellings[i]),
               f'{m}/pairwise_choice': rng.choice(judge_spellings[j])}
        if k % 3 != 2:  # two passes; mapped back to the original labels as `run` stores them
            if final == 'T':
                first, second = rng.choice([('TIE', 'TIE'), ('A', 'B'), ('B', 'A'), ('A', 'TIE'), ('TIE', 'B')])
            else:
                first = second = {'A': 'A', 'B': 'B'}[final]
            row[f'{m}/passes'] = [{'order': 'AB', 'winner': first, 'confidence': 0.7, 'justification': '...'},
                                  {'order': 'BA', 'winner': second, 'confidence': 0.6, 'justification': '...'}]
            row[f'{m}/position_consistent'] = first == second
        elif k % 6 == 2:  # swap off: a single pass
            row[f'{m}/passes'] = [{'order': 'AB', 'winner': 'TIE' if final == 'T' else final, 'confidence': 0.9,
                                   'justification': '...'}]
        lines.append(dump(row))
    write('vertex_matrix.jsonl', '\n'.join(lines) + '\n')


def pairwise_bias():
    """A .json array with response_a/response_b, lopsided toward the longer and first-shown response."""
    rng = random.Random(3)
    m = 'pref'
    items = []
    for k in range(16):
        a = text(rng, rng.randint(2, 14))
        b = text(rng, rng.randint(2, 14)) if k != 4 else a  # one pair of equal length
        longer = 'A' if len(a) > len(b) else 'B' if len(b) > len(a) else 'TIE'
        judge = longer if k % 4 != 1 else rng.choice(['A', 'B', 'TIE'])
        human = rng.choice(['A', 'B', 'TIE', 'a', 'b'])
        first = 'A' if judge != 'B' or k % 5 == 0 else 'B'
        second = judge if judge != 'TIE' else 'B'
        item = {'prompt': f'Which is better, case {k + 1}?', 'response_a': a, 'response_b': b,
                f'{m}/human_pairwise_choice': human, f'{m}/pairwise_choice': judge,
                f'{m}/passes': [{'order': 'AB', 'winner': first}, {'order': 'BA', 'winner': second}],
                f'{m}/rule_violations': [] if k % 3 else [{'pass': 2, 'rule': 'no-position-words', 'message': 'says "first"'}]}
        if k == 6:
            item[f'{m}/position_consistent'] = True  # a recorded flag wins over the passes
        items.append(item)
    items.insert(5, {'prompt': 'judge failed', 'response_a': 'x', 'response_b': 'yy', f'{m}/human_pairwise_choice': 'A',
                     f'{m}/error': 'HTTP 500 from the judge endpoint'})
    items.insert(9, {'prompt': 'unknown choice', 'response_a': 'x', 'response_b': 'yy',
                     f'{m}/human_pairwise_choice': 'C', f'{m}/pairwise_choice': 'B'})
    items.insert(11, 'not an object')
    write('pairwise_bias.json', json.dumps(items, indent=1, ensure_ascii=False) + '\n')


def pairwise_passes_csv():
    """Passes and the consistency flag as text cells, as a spreadsheet export of a results file gives them."""
    m = 'pref'
    passes = [
        ('A', 'A', 'true'), ('B', 'A', 'false'), ('TIE', 'TIE', 'true'), ('B', 'B', ''),
        ('A', 'B', ''), ('A', 'A', 'TRUE'), ('B', 'B', 'true'), ('A', 'TIE', 'false'),
    ]
    choices = [('A', 'A'), ('B', 'TIE'), ('TIE', 'TIE'), ('B', 'B'), ('A', 'TIE'), ('B', 'A'), ('B', 'B'), ('TIE', 'TIE')]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator='\n')
    w.writerow(['prompt', 'response_a', 'response_b', f'{m}/human_pairwise_choice', f'{m}/pairwise_choice',
                f'{m}/passes', f'{m}/position_consistent'])
    for k, ((p1, p2, flag), (human, judge)) in enumerate(zip(passes, choices)):
        cell = json.dumps([{'order': 'AB', 'winner': p1}, {'order': 'BA', 'winner': p2}])
        w.writerow([f'case {k + 1}, compared', 'x' * (3 + k), 'y' * (9 - k), human, judge, cell, flag])
    write('pairwise_passes.csv', buf.getvalue())


def write(name, content):
    with open(os.path.join(OUT, name), 'w', encoding='utf-8', newline='') as f:
        f.write(content)


if __name__ == '__main__':
    os.makedirs(OUT, exist_ok=True)
    pointwise_ordinal()
    pointwise_binary()
    all_equal()
    vertex_matrix()
    pairwise_bias()
    pairwise_passes_csv()
