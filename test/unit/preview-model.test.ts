import * as assert from 'node:assert/strict';
import { parseTemplate, validateTemplate } from '../../src/core/template';
import { parseDataset } from '../../src/core/dataset';
import { buildPreview, countChars, estimateTokens, type SampleOutcome } from '../../src/extension/preview/model';
import { pageHtml as previewHtml } from '../../src/extension/webview/html';
import { datasetColumns, rowSummary, selectRow, siblingDatasetNames } from '../../src/extension/preview/rows';
import { hostMessageSchema, initialDataSchema, webviewMessageSchema, type HostMessage } from '../../src/protocol/preview';

const POINTWISE = `---
name: helpfulness
kind: pointwise
scale: [1, 3]
---

# System

You judge <answers> & "quotes" verbatim.

# Criteria

Helpful answers.

# Rubric

- 3: Great.
- 2: Fine.
- 1: Bad.

# Evaluation steps

1. Read, then score.

# Task

Prompt: {{prompt}}
Response: {{response}}
`;

const PAIRWISE = (swap: boolean) => `---
name: pref
kind: pairwise
model:
  swap: ${swap}
---

# Criteria

Better answer.

# Rubric

- A: A is better.
- B: B is better.

# Evaluation steps

1. Compare.

# Task

{{prompt}}
A: {{response_a}}
B: {{response_b}}
`;

const SAMPLE = { dataset: 'data.jsonl', row: 1, rows: 2 };

function preview(text: string, record: SampleOutcome): HostMessage {
  const template = parseTemplate(text);
  return buildPreview({ uri: 'file:///w/t.judge', file: 't.judge', template, diagnostics: validateTemplate(template), sample: SAMPLE, record });
}

function ok(record: Record<string, unknown>): SampleOutcome {
  return { ok: true, record };
}

describe('preview model', () => {
  it('renders a pointwise template into a system and a user message with the row values marked', () => {
    const m = preview(POINTWISE, ok({ prompt: 'How many days are in a leap year?', response: '366 <days>' }));
    assert.equal(m.type, 'render');
    if (m.type !== 'render') return;
    assert.equal(m.orders.length, 1);
    const order = m.orders[0]!;
    assert.equal(order.label, 'single');
    assert.deepEqual(order.messages.map((x) => x.role), ['system', 'user']);
    assert.equal(order.messages[0]!.content, 'You judge <answers> & "quotes" verbatim.');
    const user = order.messages[1]!;
    const marked = user.values.map((v) => [v.name, user.content.slice(v.start, v.end)]);
    assert.deepEqual(marked, [
      ['prompt', 'How many days are in a leap year?'],
      ['response', '366 <days>'],
    ]);
  });

  it('counts characters as code points and estimates tokens as characters over four, rounded up', () => {
    assert.equal(countChars('héllo 👋'), 7);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
    assert.equal(estimateTokens(''), 0);
    const m = preview(POINTWISE, ok({ prompt: 'p', response: 'r' }));
    assert.ok(m.type === 'render');
    for (const msg of m.orders[0]!.messages) {
      assert.equal(msg.chars, countChars(msg.content));
      assert.equal(msg.tokens, Math.ceil(msg.chars / 4));
    }
  });

  it('shows both orders of a pairwise template, with the responses exchanged in BA', () => {
    const m = preview(PAIRWISE(true), ok({ prompt: 'Q', response_a: 'first answer', response_b: 'second answer' }));
    assert.ok(m.type === 'render');
    assert.deepEqual(m.orders.map((o) => [o.label, o.sent]), [['AB', true], ['BA', true]]);
    const [ab, ba] = m.orders.map((o) => o.messages.at(-1)!.content);
    assert.match(ab!, /A: first answer\nB: second answer/);
    assert.match(ba!, /A: second answer\nB: first answer/);
  });

  it('marks the BA order as not sent when the template turns the swap off', () => {
    const m = preview(PAIRWISE(false), ok({ prompt: 'Q', response_a: 'a', response_b: 'b' }));
    assert.ok(m.type === 'render');
    assert.deepEqual(m.orders.map((o) => [o.label, o.sent]), [['AB', true], ['BA', false]]);
  });

  it('lists the validation errors with code and line instead of a render', () => {
    const broken = POINTWISE.replace('# Rubric', '# Rubrik');
    const m = preview(broken, ok({ prompt: 'p', response: 'r' }));
    assert.equal(m.type, 'errors');
    if (m.type !== 'errors') return;
    assert.match(m.title, /1 error/);
    assert.deepEqual(m.errors.map((e) => [e.code, e.line]), [['missing-section', 6]]);
  });

  it('names the missing field and the row when the row lacks a placeholder', () => {
    const m = preview(POINTWISE, ok({ prompt: 'p' }));
    assert.equal(m.type, 'errors');
    if (m.type !== 'errors') return;
    assert.equal(m.errors[0]!.code, 'missing-field');
    assert.match(m.errors[0]!.message, /Row 1: field `response` is missing/);
  });

  it('passes on why there is no row to render', () => {
    const m = preview(POINTWISE, { ok: false, code: 'no-dataset', message: 'No dataset chosen.' });
    assert.ok(m.type === 'errors');
    assert.deepEqual(m.errors.map((e) => [e.code, e.message]), [['no-dataset', 'No dataset chosen.']]);
  });

  it('keeps warnings beside a successful render', () => {
    const m = preview(POINTWISE.replace('Prompt: {{prompt}}\n', '').replace('Response: {{response}}', 'Response: <response>{{response}}</response>'), ok({ response: 'r' }));
    assert.ok(m.type === 'render');
    // The fixture's terse rubric also draws info-level rubric-vague hints, which are not the point here.
    assert.deepEqual(m.diagnostics.filter((d) => d.severity !== 'info').map((d) => [d.code, d.severity]), [['missing-placeholder', 'warning']]);
  });

  it('produces messages the webview schema accepts', () => {
    for (const m of [preview(POINTWISE, ok({ prompt: 'p', response: 'r' })), preview(POINTWISE, ok({ prompt: 'p' })), preview(PAIRWISE(true), ok({ prompt: 'q', response_a: 'a', response_b: 'b' }))]) {
      assert.ok(hostMessageSchema.safeParse(JSON.parse(JSON.stringify(m))).success, m.type);
    }
  });
});

describe('preview protocol', () => {
  it('rejects a host message with an unknown type or a mark that ends before it starts', () => {
    assert.equal(hostMessageSchema.safeParse({ type: 'html', html: '<b>x</b>' }).success, false);
    const m = preview(POINTWISE, ok({ prompt: 'p', response: 'r' }));
    assert.ok(m.type === 'render');
    const bad = structuredClone(m);
    if (bad.type === 'render') bad.orders[0]!.messages[1]!.values[0] = { name: 'x', start: 5, end: 2 };
    assert.equal(hostMessageSchema.safeParse(bad).success, false);
  });

  it('accepts the webview requests and rejects a row step other than one', () => {
    for (const m of [{ type: 'ready' }, { type: 'pickDataset' }, { type: 'pickRow' }, { type: 'stepRow', delta: -1 }, { type: 'reveal', line: 3, column: 1 }]) {
      assert.ok(webviewMessageSchema.safeParse(m).success, JSON.stringify(m));
    }
    assert.equal(webviewMessageSchema.safeParse({ type: 'stepRow', delta: 5 }).success, false);
    assert.equal(webviewMessageSchema.safeParse({ type: 'reveal', line: 0, column: 1 }).success, false);
  });
});

describe('preview page', () => {
  const html = previewHtml({
    cspSource: 'https://webview.test',
    nonce: 'abc123',
    scriptUri: 'https://webview.test/dist/webview/preview.js',
    styleUri: 'https://webview.test/media/preview.css',
    title: 'Preview t.judge',
    initial: { state: { uri: 'file:///w/t.judge' }, message: preview(POINTWISE, ok({ prompt: '</script><script>alert(1)</script>', response: 'x" onload="y' })) },
  });

  it('allows only the nonce script and the webview stylesheet', () => {
    assert.match(html, /content="default-src 'none'; style-src https:\/\/webview.test; script-src 'nonce-abc123'"/);
    assert.deepEqual(html.match(/<script[^>]*>/g), ['<script type="module" nonce="abc123" src="https://webview.test/dist/webview/preview.js">']);
  });

  it('carries the initial data only in an escaped attribute that parses back to the same message', () => {
    assert.ok(!html.includes('alert(1)</script>'));
    const attr = /data-initial="([^"]*)"/.exec(html)?.[1] ?? '';
    const decoded = attr.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const parsed = initialDataSchema.safeParse(JSON.parse(decoded));
    assert.ok(parsed.success);
    const m = parsed.data.message;
    assert.ok(m?.type === 'render');
    assert.match(m.orders[0]!.messages[1]!.content, /<\/script><script>alert\(1\)<\/script>/);
  });
});

describe('preview dataset rows', () => {
  const items = parseDataset('{"id": 1, "prompt": "Hi  there\\nfriend", "meta": {"a": 1}}\nnot json\n{"id": 3, "extra": true}\n', 'jsonl');

  it('looks for a dataset with the template name beside it', () => {
    assert.deepEqual(siblingDatasetNames('helpfulness.judge'), ['helpfulness.jsonl', 'helpfulness.ndjson', 'helpfulness.json', 'helpfulness.csv']);
  });

  it('selects a row by its number and explains skipped and absent rows', () => {
    assert.deepEqual(selectRow(items, 1, 'd.jsonl'), { ok: true, record: { id: 1, prompt: 'Hi  there\nfriend', meta: { a: 1 } } });
    const skipped = selectRow(items, 2, 'd.jsonl');
    assert.ok(!skipped.ok && skipped.code === 'row-skipped' && /d\.jsonl, row 2: line 2/.test(skipped.message));
    const absent = selectRow(items, 9, 'd.jsonl');
    assert.ok(!absent.ok && absent.code === 'row-missing' && /has 3 rows, so there is no row 9/.test(absent.message));
  });

  it('collects columns in order of first appearance and summarises a row on one line', () => {
    assert.deepEqual(datasetColumns(items), ['id', 'prompt', 'meta', 'extra']);
    assert.equal(rowSummary({ id: 'x1', prompt: 'Hi  there\nfriend' }), 'prompt: Hi there friend · id: x1');
    assert.equal(rowSummary({ prompt: 'a'.repeat(200) }, 20).length, 20);
  });
});
