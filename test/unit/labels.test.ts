// The labels core: row keys, the labels file (append, relabel, undo), the review queue, seeded
// orders, live agreement, Add as Example and export.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readDataset } from '../../src/core/dataset';
import {
  appendLabels,
  buildQueue,
  currentLabels,
  exampleEdit,
  exportLabels,
  fromShown,
  humanLabels,
  labelsFileFor,
  liveAgreement,
  majority,
  MissingKeys,
  parseLabels,
  readLabels,
  shownOrder,
  toShown,
  type LabelLine,
} from '../../src/core/labels';
import { replySchema } from '../../src/core/judge/strategies/replySchema';
import { rowKey } from '../../src/core/results';
import { parseTemplate, validateTemplate } from '../../src/core/template';

const line = (key: string, label: LabelLine['label'], annotator = 'ann', extra: Partial<LabelLine> = {}): LabelLine => ({ _key: key, metric: 'm', label, annotator, time: '2024-01-01T00:00:00Z', ...extra });
const K1 = 'aaaaaaaaaaaaaaaa';
const K2 = 'bbbbbbbbbbbbbbbb';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'labels-'));
}

describe('row key', () => {
  it('is the same whatever the field order and white space of the JSON text', () => {
    const a = JSON.parse('{"prompt":"Hi","response":"Hello","id":1}') as Record<string, unknown>;
    const b = JSON.parse('{\n  "id" : 2,\n  "response" :  "Hello",\n\t"prompt": "Hi"\n}') as Record<string, unknown>;
    assert.equal(rowKey(a, ['prompt', 'response']), rowKey(b, ['response', 'prompt']));
    assert.match(rowKey(a, ['prompt', 'response']), /^[0-9a-f]{16}$/);
  });

  it('changes when an input changes, and ignores fields that are not inputs', () => {
    const base = { prompt: 'Hi', response: 'Hello', note: 'x' };
    const key = rowKey(base, ['prompt', 'response']);
    assert.notEqual(rowKey({ ...base, response: 'Hello!' }, ['prompt', 'response']), key);
    assert.notEqual(rowKey({ ...base, prompt: 'Hi ' }, ['prompt', 'response']), key);
    assert.equal(rowKey({ ...base, note: 'y', 'm/score': 3 }, ['prompt', 'response']), key);
  });
});

describe('labels file', () => {
  it('lives beside the dataset, named after it without .results', () => {
    assert.equal(labelsFileFor('/d/helpfulness.results.jsonl'), path.join('/d', 'helpfulness.labels.jsonl'));
    assert.equal(labelsFileFor('/d/helpfulness.jsonl'), path.join('/d', 'helpfulness.labels.jsonl'));
    assert.equal(labelsFileFor('/d/pass_fail.csv'), path.join('/d', 'pass_fail.labels.jsonl'));
  });

  it('appends lines (adding a missing final newline first) and reads them back', async () => {
    const file = path.join(tmp(), 'x.labels.jsonl');
    fs.writeFileSync(file, JSON.stringify(line(K1, 3)));
    await appendLabels(file, [line(K2, 'A', 'bob', { shown: 'BA', comment: 'hm' })]);
    const { lines, skipped } = await readLabels(file);
    assert.deepEqual(skipped, []);
    assert.equal(lines.length, 2);
    assert.deepEqual(lines[1], { ...line(K2, 'A', 'bob'), shown: 'BA', comment: 'hm', line: 2 }, 'read back with the line it is on (never written)');
    const last = fs.readFileSync(file, 'utf8').trim().split('\n')[1] ?? '';
    assert.deepEqual(Object.keys(JSON.parse(last) as object).slice(0, 6), ['_key', 'metric', 'label', 'annotator', 'time', 'comment']);
  });

  it('reports bad lines with their line numbers and keeps the rest', () => {
    const text = ['{"_key":"aaaaaaaaaaaaaaaa","metric":"m","label":"tie","annotator":"a","time":""}', 'nope', '{"_key":"aaaaaaaaaaaaaaaa","metric":"m","label":"C","annotator":"a"}', ''].join('\n');
    const { lines, skipped } = parseLabels(text);
    assert.equal(lines[0]?.label, 'TIE');
    assert.deepEqual(skipped.map((s) => s.line), [2, 3]);
    assert.match(skipped[1]?.error ?? '', /"C" is not a number, A, B, TIE or null/);
  });

  it('lets the last line per (key, annotator) stand, and a null label retract it', () => {
    const lines = [line(K1, 3), line(K1, 4), line(K2, 5), line(K2, null), line(K1, 2, 'other')];
    const current = currentLabels(lines, 'm');
    assert.equal(current.get(K1)?.get('ann')?.label, 4);
    assert.equal(current.get(K1)?.get('other')?.label, 2);
    assert.equal(current.has(K2), false, 'a retracted label leaves the key unlabelled');
  });

  it('takes the majority across annotators and leaves ties unlabelled', () => {
    const per = (labels: LabelLine['label'][]) => new Map(labels.map((l, i) => [`a${i}`, line(K1, l, `a${i}`)]));
    assert.deepEqual(majority(per(['A', 'A', 'B'])), { label: 'A', votes: 2, of: 3 });
    assert.deepEqual(majority(per([4, 5])), { label: undefined, tied: [4, 5], of: 2 });
    assert.deepEqual(majority(per(['A', 'B', 'TIE'])), { label: undefined, tied: ['A', 'B', 'TIE'], of: 3 });
    const human = humanLabels([line(K1, 4, 'x'), line(K1, 5, 'y'), line(K2, 1, 'x')], 'm');
    assert.equal(human.tied, 1);
    assert.deepEqual([...human.labels], [[K2, 1]]);
  });
});

describe('review queue', () => {
  const rows = [
    { row: 1, line: 1, record: { prompt: 'p1', 'm/pairwise_choice': 'A', 'm/confidence': 0.95, 'm/position_consistent': true } },
    { row: 2, line: 2, record: { prompt: 'p2', 'm/pairwise_choice': 'TIE', 'm/confidence': 0.5, 'm/position_consistent': false } },
    { row: 3, line: 3, record: { prompt: 'p3', 'm/error': 'timeout', 'm/error_kind': 'timeout' } },
    { row: 4, line: 4, record: { prompt: 'p4', 'm/pairwise_choice': 'B', 'm/confidence': 0.6 } },
    { row: 5, line: 5, record: { prompt: 'p5', 'm/pairwise_choice': 'B', 'm/confidence': 0.9, 'm/rule_violations': [{ rule: 'r' }] } },
    { row: 6, line: 6, record: { prompt: 'p6' } },
  ];

  it('puts position-inconsistent, rule-violating and low-confidence rows first and leaves failed rows out', () => {
    const q = buildQueue(rows, { metric: 'm', order: 'uncertain', seed: 's', fields: ['prompt'] });
    assert.deepEqual(q.items.map((i) => i.row), [2, 5, 4, 1]);
    assert.deepEqual(q.items[0]?.reasons, ['position-inconsistent', 'low confidence (0.50)']);
    assert.equal(q.failed, 1);
    assert.equal(q.unjudged, 1);
  });

  it('gives the same random sample for the same seed, and another for another seed', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ row: i + 1, line: i + 1, record: { prompt: `p${i}`, 'm/score': 3 } }));
    const order = (seed: string) => buildQueue(many, { metric: 'm', order: 'random', seed, fields: ['prompt'] }).items.map((i) => i.row);
    assert.deepEqual(order('a'), order('a'));
    assert.notDeepEqual(order('a'), order('b'));
    assert.deepEqual([...order('a')].sort((x, y) => x - y), many.map((r) => r.row));
  });

  it('says so when rows have no _key and the key fields are unknown', () => {
    assert.throws(() => buildQueue(rows, { metric: 'm', order: 'uncertain', seed: 's', fields: undefined }), MissingKeys);
    const keyed = rows.map((r) => ({ ...r, record: { ...r.record, _key: 'cccccccccccccccc' } }));
    assert.equal(buildQueue(keyed, { metric: 'm', order: 'uncertain', seed: 's', fields: undefined }).items.length, 4);
  });

  it('shows pairwise responses in a seeded order and maps a choice back to the file order', () => {
    const orders = Array.from({ length: 40 }, (_, i) => shownOrder('seed', `k${i}`));
    assert.ok(orders.includes('AB') && orders.includes('BA'), 'both orders occur');
    assert.equal(shownOrder('seed', 'k1'), shownOrder('seed', 'k1'));
    assert.equal(fromShown('A', 'BA'), 'B');
    assert.equal(fromShown('B', 'BA'), 'A');
    assert.equal(fromShown('TIE', 'BA'), 'TIE');
    assert.equal(fromShown('A', 'AB'), 'A');
    assert.equal(toShown(fromShown('B', 'BA'), 'BA'), 'B');
  });
});

describe('live agreement', () => {
  it('reports accuracy with a Wilson interval, kappa and the labels still needed', () => {
    const pairs = [
      { human: 1, judge: 1 },
      { human: 0, judge: 0 },
      { human: 1, judge: 0 },
      { human: 1, judge: 1 },
    ];
    const a = liveAgreement(pairs, 0.2);
    assert.equal(a.n, 4);
    assert.equal(a.accuracy, 0.75);
    assert.ok(a.interval && a.interval.low < 0.75 && a.interval.high > 0.75);
    assert.equal(a.balanced_accuracy, (1 + 2 / 3) / 2);
    assert.ok(a.more_needed !== undefined && a.more_needed > 0);
    const none = liveAgreement([], 0.2);
    assert.equal(none.accuracy, null);
    assert.equal(none.interval, undefined);
  });
});

describe('Add as Example', () => {
  const pointwise = `---\nname: m\nkind: pointwise\nscale: [1, 5]\ninputs: [prompt, response]\n---\n\n# Criteria\n\nc\n\n# Rubric\n\n- 1: bad\n- 2: meh\n- 3: ok\n- 4: good\n- 5: great\n\n# Evaluation steps\n\n1. read\n\n# Task\n\n{{prompt}}\n{{response}}\n`;

  it('creates an Examples section after the evaluation steps, valid for the validator', () => {
    const t = parseTemplate(pointwise);
    const out = exampleEdit(t, { prompt: 'Say {{hi}}', response: 'line one\n# Rubric\nline three' }, ['prompt', 'response'], 2, 'Too terse.');
    assert.ok(out.ok, out.ok ? '' : out.error);
    const text = t.text.slice(0, out.edit.offset) + out.edit.text + t.text.slice(out.edit.offset);
    const after = parseTemplate(text);
    assert.deepEqual(after.sections.map((s) => s.key), ['criteria', 'rubric', 'evaluation_steps', 'examples', 'other']);
    assert.equal(after.examples.length, 1);
    assert.deepEqual(after.examples[0]?.value, { justification: 'Too terse.', score: 2 });
    assert.ok(replySchema(after.config!).safeParse(after.examples[0]?.value).success);
    assert.deepEqual(validateTemplate(after).filter((d) => d.severity === 'error'), []);
    assert.ok(text.includes('Prompt: Say \\{{hi}}'), 'braces from the dataset are escaped for Handlebars');
    assert.ok(text.includes('    # Rubric'), 'a heading inside a value is indented as code, not a section');
    assert.equal(out.edit.text.slice(out.edit.justification.start, out.edit.justification.end), 'Too terse.');
  });

  it('appends to an existing Examples section as the next example', () => {
    const withExample = pointwise.replace('# Task', '# Examples\n\n## Example 1\n\nPrompt: a\n\n```json\n{"justification": "j", "score": 5}\n```\n\n# Task');
    const t = parseTemplate(withExample);
    const out = exampleEdit(t, { prompt: 'p', response: 'r' }, ['prompt', 'response'], 1, undefined);
    assert.ok(out.ok);
    const text = t.text.slice(0, out.edit.offset) + out.edit.text + t.text.slice(out.edit.offset);
    const after = parseTemplate(text);
    assert.equal(after.examples.length, 2);
    assert.ok(text.includes('## Example 2'));
    assert.equal(after.sections.filter((s) => s.key === 'examples').length, 1);
  });

  it('refuses a label outside the reply schema', () => {
    const out = exampleEdit(parseTemplate(pointwise), { prompt: 'p', response: 'r' }, ['prompt', 'response'], 9, undefined);
    assert.ok(!out.ok);
    assert.match(out.error, /score/);
  });

  it('writes a pairwise reply with the winner in the file order', () => {
    const pair = `---\nname: p\nkind: pairwise\n---\n\n# Criteria\n\nc\n\n# Rubric\n\n- A: a\n- B: b\n- TIE: t\n\n# Evaluation steps\n\n1. x\n\n# Task\n\n{{prompt}} {{response_a}} {{response_b}}\n`;
    const out = exampleEdit(parseTemplate(pair), { prompt: 'p', response_a: 'a', response_b: 'b' }, ['prompt', 'response_a', 'response_b'], 'B', 'b is clearer');
    assert.ok(out.ok);
    assert.ok(out.edit.text.includes('{"justification": "b is clearer", "winner": "B", "confidence": 1}'));
  });
});

describe('labels export', () => {
  it('writes the Vertex columns into a copy of a CSV dataset, computing keys from the recorded fields', async () => {
    const dir = tmp();
    const data = path.join(dir, 'd.csv');
    fs.writeFileSync(data, 'prompt,response\n"a, b",x\nc,y\n');
    const k1 = rowKey({ prompt: 'a, b', response: 'x' }, ['prompt', 'response']);
    const human = humanLabels([line(k1, 4, 'ann', { fields: ['prompt', 'response'] })], 'm');
    const out = path.join(dir, 'd2.csv');
    const stats = await exportLabels(data, out, [{ metric: 'm', human }], human.fields);
    assert.deepEqual(stats, { rows: 2, labelled: 1, skipped: 0, without_key: 0 });
    const rows = [];
    for await (const item of readDataset(out)) rows.push(item);
    assert.deepEqual(rows.map((r) => ('record' in r ? r.record : r)), [
      { prompt: 'a, b', response: 'x', 'm/human_rating': '4' },
      { prompt: 'c', response: 'y', 'm/human_rating': '' },
    ]);
  });
});
