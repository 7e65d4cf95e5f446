// Free-form templates and verdict formats: validation codes, rendering exactly as written, the
// generated instruction for a structured template with a tagged verdict.
import * as assert from 'node:assert/strict';
import { parseTemplate, renderTemplate, validateTemplate } from '../../src/core/template';
import { expectNone, expectOne, VALID, withCode } from './template.fixtures.test';

const FREE_SINGLE = `---
name: mt_single
kind: pointwise
scale: [1, 10]
freeform: true
verdict: tagged
system: "You judge answers.\\n\\n"
inputs: [question, answer]
---
[Question]
{{question}}

[Answer]
{{answer}}

Explain, then rate 1-10 as "Rating: [[5]]".
`;

const FREE_PAIR = `---
name: mt_pair
kind: pairwise
freeform: true
verdict: {format: tagged, match: last}
inputs: [question, answer_a, answer_b]
pair: {a: [answer_a], b: [answer_b]}
---
Q: {{question}}
A: {{answer_a}}
B: {{answer_b}}
Reply [[A]], [[B]] or [[C]] for a tie.
`;

function render(text: string, row: Record<string, unknown>, swap = false) {
  const r = renderTemplate(parseTemplate(text), row, { swap });
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.prompt.messages;
}

describe('free-form templates', () => {
  it('validate with no required sections and no response/prompt placeholder', () => {
    assert.deepEqual(validateTemplate(FREE_SINGLE), []);
    assert.deepEqual(validateTemplate(FREE_PAIR), []);
  });

  it('render the body exactly as written and the front-matter system message verbatim, with nothing appended', () => {
    const messages = render(FREE_SINGLE, { question: ' q ', answer: 'a\n' });
    assert.deepEqual(messages, [
      { role: 'system', content: 'You judge answers.\n\n' },
      { role: 'user', content: '[Question]\n q \n\n[Answer]\na\n\n\nExplain, then rate 1-10 as "Rating: [[5]]".' },
    ]);
  });

  it('swap the fields named by `pair` in pass 2', () => {
    const [first] = render(FREE_PAIR, { question: 'q', answer_a: 'one', answer_b: 'two' }, true);
    assert.equal(first?.content, 'Q: q\nA: two\nB: one\nReply [[A]], [[B]] or [[C]] for a tie.');
  });

  it('still check placeholders against inputs', () => {
    const d = withCode(validateTemplate(FREE_SINGLE.replace('{{answer}}', '{{answr}}')), 'unknown-placeholder');
    assert.equal(d.length, 1);
    assert.match(d[0]!.message, /did you mean `answer`/);
  });

  it('refuse a system message given both in front matter and as a # System section', () => {
    const d = withCode(validateTemplate(FREE_SINGLE.replace('[Question]', '# System\nBe fair.\n\n# Task\n[Question]')), 'duplicate-section');
    assert.equal(d.length, 1);
  });

  it('need every field `pair` swaps to be used', () => {
    const d = withCode(validateTemplate(FREE_PAIR.replace('B: {{answer_b}}\n', '')), 'missing-placeholder');
    assert.ok(d.some((x) => /answer_b/.test(x.message) && x.severity === 'error'));
  });

  describe('verdict-missing', () => {
    it('fires on a free-form template that declares no verdict format, at the `freeform` key', () => {
      const d = expectOne(FREE_SINGLE.replace('verdict: tagged\n', ''), 'verdict-missing');
      assert.equal(d.severity, 'error');
      assert.equal(d.line, 5);
    });
    it('does not fire for a structured template, whose verdict is JSON by default', () => {
      expectNone(VALID, 'verdict-missing');
    });
  });

  describe('verdict-labels-in-prompt', () => {
    it('warns at `verdict` when the prompt lists the tagged labels and no match rule is chosen', () => {
      const d = expectOne(FREE_PAIR.replace('verdict: {format: tagged, match: last}', 'verdict: ⟨tagged⟩'), 'verdict-labels-in-prompt');
      assert.equal(d.severity, 'warning');
      assert.match(d.message, /"\[\[A\]\]", "\[\[B\]\]", "\[\[C\]\]"/);
      assert.match(d.message, /FastChat's rule/);
    });
    it('does not fire once `match` is set, nor for a prompt showing one example verdict', () => {
      expectNone(FREE_PAIR, 'verdict-labels-in-prompt');
      expectNone(FREE_SINGLE, 'verdict-labels-in-prompt');
    });
  });

  describe('verdict-not-asked', () => {
    it('warns when a tagged free-form prompt never shows the judge the brackets', () => {
      const d = expectOne(FREE_SINGLE.replace('Explain, then rate 1-10 as "Rating: [[5]]".', 'Explain, then rate.'), 'verdict-not-asked');
      assert.equal(d.severity, 'warning');
    });
    it('does not fire when the system message asks for the format', () => {
      const text = FREE_SINGLE.replace('Explain, then rate 1-10 as "Rating: [[5]]".', 'Explain, then rate.').replace('You judge answers.', 'End with [[N]].');
      expectNone(text, 'verdict-not-asked');
    });
  });

  describe('verdict-pattern-invalid, verdict-pattern-unsupported and verdict-pattern-unsafe', () => {
    it('fire at the pattern in the front matter', () => {
      const base = FREE_SINGLE.replace('verdict: tagged', 'verdict: {format: regex, pattern: "Rating: (\\\\d+)"}');
      const d = expectOne(base, 'verdict-pattern-invalid');
      assert.equal(d.line, 6);
      const back = expectOne(base.replace('(\\\\d+)', '(?<score>\\\\d)\\\\1'), 'verdict-pattern-unsupported');
      assert.equal(back.line, 6);
      assert.match(back.message, /backreference/);
      expectOne(base.replace('(\\\\d+)', '(?<score>(?:x?){400})'), 'verdict-pattern-unsafe');
    });
    it('accept nested repetition, which no longer risks backtracking', () => {
      const text = FREE_SINGLE.replace('verdict: tagged', 'verdict: {format: regex, pattern: "^(a|a)*(?<score>\\\\d)X"}');
      expectNone(text, 'verdict-pattern-unsafe');
      expectNone(text, 'verdict-pattern-unsupported');
    });
    it('do not fire for a safe pattern with its named group', () => {
      const text = FREE_SINGLE.replace('verdict: tagged', 'verdict: {format: regex, pattern: "Rating: \\\\[\\\\[(?<score>\\\\d+)\\\\]\\\\]"}');
      expectNone(text, 'verdict-pattern-invalid');
      expectNone(text, 'verdict-pattern-unsafe');
    });
  });
});

describe('structured templates with a tagged verdict', () => {
  it('append the tagged instruction instead of the JSON one, and keep JSON templates unchanged', () => {
    const tagged = VALID.replace('scale: [1, 3]', 'scale: [1, 3]\nverdict: tagged');
    const row = { prompt: 'p', response: 'r' };
    const user = render(tagged, row).at(-1)!.content;
    assert.match(user, /"Rating: \[\[3\]\]"/);
    assert.doesNotMatch(user, /JSON/);
    assert.match(render(VALID, row).at(-1)!.content, /Reply with a single JSON object/);
  });
});

describe('the parsing rule in the preview and the hover', () => {
  it('is shown by the preview for a template that declares a verdict, and only then', async () => {
    const { buildPreview } = await import('../../src/extension/preview/model');
    const preview = (text: string) => {
      const template = parseTemplate(text);
      return buildPreview({ uri: 'file:///w/t.judge', file: 't.judge', template, diagnostics: validateTemplate(template), sample: { dataset: 'd.jsonl', row: 1, rows: 1 }, record: { ok: true, record: { question: 'q', answer: 'a', prompt: 'p', response: 'r' } } });
    };
    const tagged = preview(FREE_SINGLE);
    assert.ok(tagged.type === 'render' && /first \[\[N\]\].*1 to 10/.test(tagged.verdictRule ?? ''));
    const json = preview(VALID);
    assert.ok(json.type === 'render' && json.verdictRule === undefined);
  });

  it('is shown by the hover over the `verdict` key', async () => {
    const { hoverAt } = await import('../../src/extension/language/model/hover');
    const t = parseTemplate(FREE_PAIR);
    const info = hoverAt(t, FREE_PAIR.indexOf('verdict') + 2, { columns: [], record: undefined, row: undefined, dataset: undefined } as never);
    assert.ok(info);
    assert.ok(info.parts.some((p) => 'text' in p && /\[\[C\]\] means a tie/.test(p.text)));
  });
});

describe('verdict and free-form keys in the front matter', () => {
  it('refuses a regex verdict without a pattern, a pattern on a tagged verdict, and `pair` on a pointwise template', () => {
    const invalid = (text: string) => withCode(validateTemplate(text), 'front-matter-invalid').map((d) => d.message);
    assert.match(invalid(FREE_SINGLE.replace('verdict: tagged', 'verdict: {format: regex}')).join(' '), /needs a `pattern`/);
    assert.match(invalid(FREE_SINGLE.replace('verdict: tagged', 'verdict: {format: tagged, pattern: "x"}')).join(' '), /belong to `format: regex`/);
    assert.match(invalid(FREE_SINGLE.replace('inputs:', 'pair: {a: [question], b: [answer]}\ninputs:')).join(' '), /belongs to pairwise templates/);
    assert.match(invalid(FREE_PAIR.replace('pair: {a: [answer_a], b: [answer_b]}', 'pair: {a: [answer_a], b: [answer_b, question]}')).join(' '), /same number of fields/);
  });
});
