#!/usr/bin/env python3
"""Reference renders for the FastChat importer, computed by Python itself.

Plain Python 3, standard library only. For every judge prompt in
test/fixtures/import/fastchat_prompts.jsonl (written by this project in FastChat's format) and every
row of test/fixtures/import/fastchat_rows.jsonl, the user message is exactly what FastChat sends:
`prompt_template.format(**row)`, and the system message is `system_prompt` unchanged.
Run: python3 test/reference/fastchat_reference.py  -> writes fastchat_reference.json next to it
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, '..', 'fixtures', 'import')


def read_jsonl(name):
    with open(os.path.join(FIXTURES, name), encoding='utf-8') as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    prompts = read_jsonl('fastchat_prompts.jsonl')
    rows = read_jsonl('fastchat_rows.jsonl')
    out = {}
    for p in prompts:
        out[p['name']] = [
            {'row': i + 1, 'system': p['system_prompt'], 'user': p['prompt_template'].format(**row)}
            for i, row in enumerate(rows)
        ]
    with open(os.path.join(HERE, 'fastchat_reference.json'), 'w', encoding='utf-8') as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write('\n')


if __name__ == '__main__':
    main()
