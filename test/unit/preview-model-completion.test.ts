import * as assert from 'node:assert/strict';
import { parseTemplate } from '../../src/core/template';
import { completionsAt, openBlocks } from '../../src/extension/language/model/completion';
import { NO_SAMPLE, type SampleView } from '../../src/extension/language/model/edits';

/** The template with the cursor marker ‸ removed, and the cursor offset. */
function at(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf('‸');
  assert.ok(offset >= 0, 'fixture needs a ‸ cursor marker');
  return { text: marked.slice(0, offset) + marked.slice(offset + 1), offset };
}

function complete(marked: string, sample: SampleView = NO_SAMPLE) {
  const { text, offset } = at(marked);
  return completionsAt(parseTemplate(text), offset, sample);
}

function labels(marked: string, sample: SampleView = NO_SAMPLE): string[] {
  return complete(marked, sample).map((e) => e.label);
}

const HEAD = `---
name: helpfulness
kind: pointwise
scale: [1, 5]
inputs: [prompt, response, context, rubric_notes]
---
`;

describe('completion', () => {
  it('offers the declared inputs first, then the standard fields of the kind, after {{', () => {
    const entries = complete(`${HEAD}\n# Task\n\n{{‸}}\n`);
    const names = [...entries].sort((a, b) => a.sortText.localeCompare(b.sortText)).map((e) => e.label);
    assert.deepEqual(names, ['context', 'prompt', 'response', 'rubric_notes', 'reference']);
    assert.equal(entries.find((e) => e.label === 'rubric_notes')?.detail, 'declared input');
    assert.equal(entries.find((e) => e.label === 'reference')?.detail, 'standard pointwise field');
  });

  it('replaces the partly typed name and the rest of the word', () => {
    const { text, offset } = at(`${HEAD}\n{{resp‸onze}}\n`);
    const entry = completionsAt(parseTemplate(text), offset, NO_SAMPLE).find((e) => e.label === 'response');
    assert.equal(text.slice(entry!.start, entry!.end), 'responze');
  });

  it('adds the chosen dataset columns, declaring an undeclared one in inputs on accept', () => {
    const sample: SampleView = { columns: ['prompt', 'id', 'helpfulness/human_rating'], record: { prompt: 'Leap year?', id: 'h1' }, row: 1, dataset: 'h.jsonl' };
    const entries = complete(`${HEAD}\n{{‸\n`, sample);
    const id = entries.find((e) => e.label === 'id');
    assert.ok(id);
    assert.equal(id.value, 'h1');
    assert.deepEqual(id.additionalEdits?.map((e) => e.newText), [', id']);
    assert.equal(entries.find((e) => e.label === 'prompt')?.value, 'Leap year?');
    assert.ok(!entries.some((e) => e.label.includes('/')), 'a column that is not a name cannot be a placeholder');
  });

  it('offers the pairwise fields for a pairwise template', () => {
    const names = labels('---\nname: p\nkind: pairwise\n---\n\n{{‸');
    assert.deepEqual(names.sort(), ['baseline_model_response', 'context', 'prompt', 'reference', 'response', 'response_a', 'response_b']);
  });

  it('offers keys of an object field after a dot, and of a list item after this. inside each', () => {
    const sample: SampleView = { columns: ['meta', 'turns'], record: { meta: { source: 'web', lang: 'en' }, turns: [{ role: 'user', text: 'hi' }] } };
    assert.deepEqual(labels(`${HEAD}\n{{meta.‸`, sample), ['source', 'lang']);
    assert.deepEqual(labels(`${HEAD}\n{{#each turns}}{{this.‸`, sample), ['role', 'text']);
  });

  it('offers block helpers after {{# and the open block after {{/', () => {
    assert.deepEqual(labels(`${HEAD}\n{{#‸`), ['each', 'if', 'unless', 'with']);
    assert.deepEqual(labels(`${HEAD}\n{{#each examples}}{{#if x}}{{/if}}{{/‸`), ['each']);
    assert.deepEqual(openBlocks('{{#each a}}{{#with b}}{{/with}}'), ['each']);
  });

  it('offers the sections not yet written after "# ", required ones first', () => {
    const entries = complete(`${HEAD}\n# Criteria\n\nx\n\n# ‸\n`);
    const sorted = [...entries].sort((a, b) => a.sortText.localeCompare(b.sortText)).map((e) => e.label);
    assert.deepEqual(sorted, ['Rubric', 'Evaluation steps', 'System', 'Examples', 'Output format', 'Instructions', 'Rating rubric']);
  });

  it('offers no section names inside a code fence', () => {
    assert.deepEqual(labels(`${HEAD}\n\`\`\`\n# ‸\n\`\`\`\n`), []);
  });

  it('offers the front-matter keys not yet written, for the template kind', () => {
    const names = labels('---\nname: x\nkind: pointwise\n‸\n---\n');
    assert.deepEqual(names, ['description', 'scale', 'range', 'labels', 'passing_labels', 'pass_threshold', 'source', 'inputs', 'model', 'criteria', 'verdict', 'freeform', 'system']);
    const { text, offset } = at('---\nname: x\nkind: pointwise\nsc‸\n---\n');
    const entry = completionsAt(parseTemplate(text), offset, NO_SAMPLE).find((e) => e.label === 'scale');
    assert.equal(entry?.insertText, 'scale: ');
    assert.equal(text.slice(entry.start, entry.end), 'sc');
  });

  it('offers the model keys inside model:, swap only for pairwise', () => {
    assert.deepEqual(labels('---\nname: x\nkind: pairwise\nmodel:\n  temperature: 0\n  ‸\n---\n'), ['name', 'max_tokens', 'swap']);
    assert.deepEqual(labels('---\nname: x\nkind: pointwise\nmodel:\n  ‸\n---\n'), ['name', 'temperature', 'max_tokens']);
  });

  it('offers the values of kind and swap, also before the front matter is closed', () => {
    assert.deepEqual(labels('---\nname: x\nkind: ‸'), ['pointwise', 'pairwise']);
    assert.deepEqual(labels('---\nname: x\nkind: pairwise\nmodel:\n  swap: ‸\n---\n'), ['true', 'false']);
  });

  it('offers nothing in plain prose', () => {
    assert.deepEqual(labels(`${HEAD}\n# Criteria\n\nHelpful ‸answers.\n`), []);
  });
});
