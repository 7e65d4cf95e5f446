// renderTemplate: one dataset row -> the exact chat messages, with strict missing-field errors.
import * as assert from 'node:assert/strict';
import { outputInstruction } from '../../src/core/judge/strategies/replySchema';
import { parseTemplate, renderTemplate, type RenderOutcome, type RenderedPrompt } from '../../src/core/template';

const FM = '---\nname: helpfulness\nkind: pointwise\nscale: [1, 5]\n---\n';
const POINTWISE = `${FM}# System

You are strict.

# Criteria

Helpful?

# Task

Q: {{prompt}}
A: {{response}}
`;

const PAIRWISE = `---
name: pref
kind: pairwise
---
# Criteria

Better?

# Task

{{prompt}}
[A] {{response_a}}
[B] {{response_b}}
`;

function ok(outcome: RenderOutcome): RenderedPrompt {
  if (!outcome.ok) assert.fail(`render failed: ${outcome.error}`);
  return outcome.prompt;
}

function failed(outcome: RenderOutcome): { error: string; field?: string } {
  if (outcome.ok) assert.fail('render should have failed');
  return outcome;
}

const ROW = { prompt: 'What is 2+2?', response: 'Four.' };

describe('renderTemplate', () => {
  it('turns the System section into the system message and the rest into the user message', () => {
    const { messages } = ok(renderTemplate(parseTemplate(POINTWISE), ROW));
    assert.deepEqual(messages.map((m) => m.role), ['system', 'user']);
    assert.equal(messages[0]!.content, 'You are strict.');
    assert.ok(messages[1]!.content.startsWith('# Criteria\n\nHelpful?\n\n# Task\n\nQ: What is 2+2?\nA: Four.\n\n'));
  });

  it('keeps the text around a System section that is not first, in order', () => {
    const t = parseTemplate(`${FM}Intro.\n\n# System\n\nBe fair.\n\n# Task\n\n{{response}}\n`);
    const { messages } = ok(renderTemplate(t, ROW));
    assert.equal(messages[0]!.content, 'Be fair.');
    assert.ok(messages[1]!.content.startsWith('Intro.\n\n# Task\n\nFour.\n\n# Output format'));
  });

  it('sends a single user message when there is no System section', () => {
    const { messages } = ok(renderTemplate(parseTemplate(`${FM}# Task\n\n{{response}}\n`), ROW));
    assert.deepEqual(messages.map((m) => m.role), ['user']);
  });

  it('appends the output instruction derived from the reply schema when there is no Output format section', () => {
    const t = parseTemplate(POINTWISE);
    const user = ok(renderTemplate(t, ROW)).messages[1]!.content;
    const instruction = outputInstruction(t.config!);
    assert.ok(user.endsWith(`A: Four.\n\n${instruction}`));
    assert.match(instruction, /"justification"[\s\S]*"score": An integer from 1 to 5/);
  });

  it('appends nothing when the template writes its own Output format section', () => {
    const t = parseTemplate(`${POINTWISE}\n# Output format\n\nJSON with score and justification.\n`);
    const user = ok(renderTemplate(t, ROW)).messages[1]!.content;
    assert.ok(user.endsWith('# Output format\n\nJSON with score and justification.'));
    assert.equal(user.split('# Output format').length, 2);
  });

  it('keeps <b>&"\' and {{ inside values byte-exact', () => {
    const prompt = `<b>&amp; "quoted" it's</b> {{response}} {{#each x}} \\{{y}}`;
    const { messages } = ok(renderTemplate(parseTemplate(POINTWISE), { ...ROW, prompt }));
    assert.ok(messages[1]!.content.includes(`Q: ${prompt}\nA: Four.`));
  });

  it('keeps a value that ends the message with its trailing whitespace, and marks where it landed', () => {
    const response = 'Four.  \n\n';
    const t = parseTemplate(`${FM}# Output format\n\nJSON.\n\n# Task\n\n{{response}}\n\n`);
    const { messages, values } = ok(renderTemplate(t, { ...ROW, response }, { values: true }));
    assert.ok(messages[0]!.content.endsWith(`# Task\n\n${response}`));
    const mark = values.find((v) => v.name === 'response');
    assert.ok(mark, 'the response value is marked');
    assert.equal(messages[mark.messageIndex]!.content.slice(mark.start, mark.end), response);
  });

  it('marks every value in the message it landed in', () => {
    const { messages, values } = ok(renderTemplate(parseTemplate(`${FM}# System\n\nAbout {{prompt}}.\n\n# Task\n\n{{prompt}} / {{response}}\n`), ROW, { values: true }));
    assert.deepEqual(values.map((v) => [v.name, v.messageIndex, messages[v.messageIndex]!.content.slice(v.start, v.end)]), [
      ['prompt', 0, ROW.prompt],
      ['prompt', 1, ROW.prompt],
      ['response', 1, ROW.response],
    ]);
  });

  it('renders once and reports no value positions unless asked (the judge never asks)', () => {
    const t = parseTemplate(`${FM}# Task\n\n{{prompt}} / {{response}}\n`);
    const plain = ok(renderTemplate(t, ROW));
    assert.deepEqual(plain.values, []);
    assert.deepEqual(plain.messages, ok(renderTemplate(t, ROW, { values: true })).messages);
  });

  it('prints numbers and false as text, and objects as JSON', () => {
    const t = parseTemplate(`${FM}# Task\n\n{{response}} {{flag}} {{meta}}\n`);
    const { messages } = ok(renderTemplate(t, { response: 0, flag: false, meta: { a: [1] } }));
    assert.ok(messages[0]!.content.startsWith('# Task\n\n0 false {\n  "a": [\n    1\n  ]\n}'));
  });

  it('iterates an array field with {{#each}}', () => {
    const t = parseTemplate(`${FM}{{#each shots}}[{{input}}]{{/each}} {{response}}`);
    const { messages } = ok(renderTemplate(t, { response: 'r', shots: [{ input: 'a' }, { input: 'b' }] }));
    assert.ok(messages[0]!.content.startsWith('[a][b] r'));
  });

  it('fails on a missing field, naming the field, the row and where the template uses it', () => {
    const outcome = failed(renderTemplate(parseTemplate(POINTWISE), { prompt: 'p' }, { row: 7 }));
    assert.equal(outcome.field, 'response');
    assert.equal(outcome.error, 'Row 7: field `response` is missing (used at line 17, column 6); add it to the dataset or remove the placeholder.');
  });

  it('fails on a null field rather than rendering it empty', () => {
    const outcome = failed(renderTemplate(parseTemplate(POINTWISE), { prompt: 'p', response: null }, { row: 2 }));
    assert.equal(outcome.field, 'response');
    assert.match(outcome.error, /^Row 2: field `response` is null/);
  });

  it('calls the row "the sample" when no row number is given', () => {
    assert.match(failed(renderTemplate(parseTemplate(POINTWISE), {})).error, /^The sample: field `prompt` is missing/);
  });

  it('fails on a field missing inside a block, naming the field and its position', () => {
    const t = parseTemplate(`${FM}{{response}}\n{{#each shots}}{{input}}{{/each}}`);
    const outcome = failed(renderTemplate(t, { response: 'r', shots: [{ input: 'a' }, { other: 'b' }] }, { row: 3 }));
    assert.equal(outcome.field, 'input');
    assert.equal(outcome.error, 'Row 3: field `input` is missing inside a block (line 7, column 18); add it to every item or remove the placeholder.');
  });

  it('fails on a missing nested field, naming its whole path', () => {
    const t = parseTemplate(`${FM}{{response}} {{meta.source.url}}`);
    const outcome = failed(renderTemplate(t, { response: 'r', meta: { source: {} } }, { row: 4 }));
    assert.equal(outcome.field, 'meta.source.url');
    assert.match(outcome.error, /^Row 4: field `meta\.source\.url` is missing \(used at line 6, column 16\)/);
  });

  it('fails with a plain message when a path walks into text', () => {
    const t = parseTemplate(`${FM}{{response.text}}`);
    const outcome = failed(renderTemplate(t, { response: 'Four.' }, { row: 1 }));
    assert.equal(outcome.error, 'Row 1: `response` is text, not an object, so `response.text` cannot be read (used at line 6, column 3); use `{{response}}` or fix the dataset.');
  });

  it('refuses to render a template whose front matter is invalid', () => {
    assert.match(failed(renderTemplate(parseTemplate('# Task\n{{response}}'), ROW)).error, /front-matter errors/);
  });

  it('refuses to render a template whose Handlebars does not parse', () => {
    assert.match(failed(renderTemplate(parseTemplate(`${FM}{{#each x}}`), ROW)).error, /Handlebars syntax errors/);
  });

  describe('pairwise', () => {
    const row = { prompt: 'P', response_a: 'first', response_b: 'second' };

    it('shows response_a as A and response_b as B', () => {
      const user = ok(renderTemplate(parseTemplate(PAIRWISE), row)).messages[0]!.content;
      assert.ok(user.includes('[A] first\n[B] second'));
    });

    it('exchanges the two responses with swap', () => {
      const user = ok(renderTemplate(parseTemplate(PAIRWISE), row, { swap: true })).messages[0]!.content;
      assert.ok(user.includes('[A] second\n[B] first'));
    });

    it('exchanges the Vertex pair, baseline_model_response (A) and response (B), with swap', () => {
      const t = parseTemplate(PAIRWISE.replace('{{response_a}}', '{{baseline_model_response}}').replace('{{response_b}}', '{{response}}'));
      const vertex = { prompt: 'P', baseline_model_response: 'base', response: 'cand' };
      assert.ok(ok(renderTemplate(t, vertex)).messages[0]!.content.includes('[A] base\n[B] cand'));
      assert.ok(ok(renderTemplate(t, vertex, { swap: true })).messages[0]!.content.includes('[A] cand\n[B] base'));
    });

    it('appends the pairwise output instruction with winner and confidence', () => {
      const user = ok(renderTemplate(parseTemplate(PAIRWISE), row)).messages[0]!.content;
      assert.match(user, /"winner"[\s\S]*"confidence"/);
    });
  });

  it('ignores swap for a pointwise template', () => {
    const a = ok(renderTemplate(parseTemplate(POINTWISE), ROW));
    const b = ok(renderTemplate(parseTemplate(POINTWISE), ROW, { swap: true }));
    assert.deepEqual(b.messages, a.messages);
  });
});
