// The Vertex AI importer: a metric prompt template's text (fixtures written here in the layout
// PointwiseMetricPromptTemplate / PairwiseMetricPromptTemplate serialise to) becomes a structured
// template whose render starts with that text, each `{variable}` filled as Vertex fills it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importVertex } from '../../src/core/import/vertex';
import { parseTemplate, renderTemplate, validateTemplate } from '../../src/core/template';

const ROOT = path.resolve(__dirname, '../../..');
const read = (f: string) => fs.readFileSync(path.join(ROOT, 'test/fixtures/import', f), 'utf8');

function fill(text: string, row: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (_, n: string) => row[n] ?? '');
}

describe('import vertex', () => {
  it('makes a structured pointwise template: Vertex sections count, scale from the rubric, same text rendered', () => {
    const source = read('vertex_pointwise.txt');
    const r = importVertex(source, 'groundedness.txt');
    assert.deepEqual(r.problems, []);
    const t = r.templates[0]!;
    assert.equal(t.file, 'groundedness.judge');
    assert.deepEqual(validateTemplate(t.text).filter((d) => d.severity === 'error'), []);
    const parsed = parseTemplate(t.text);
    assert.deepEqual(parsed.config!.scale, { min: 1, max: 5 });
    assert.deepEqual(parsed.config!.inputs, ['prompt', 'context', 'response']);
    const row = { prompt: 'Who wrote {it}?', context: 'Ann wrote it.\\', response: 'Ann, per the {{context}}.' };
    const out = renderTemplate(parsed, row);
    assert.ok(out.ok);
    const user = out.prompt.messages[0]!.content;
    assert.ok(user.startsWith(`${fill(source, row)}\n\n# Output format`), user);
  });

  it('makes a pairwise template over the Vertex pair, swapped in pass 2', () => {
    const source = read('vertex_pairwise.txt');
    const t = importVertex(source, 'helpful pair.txt').templates[0]!;
    assert.equal(t.name, 'helpful_pair');
    assert.deepEqual(validateTemplate(t.text).filter((d) => d.severity === 'error'), []);
    const row = { prompt: 'p', baseline_model_response: 'base', response: 'cand' };
    const swapped = renderTemplate(parseTemplate(t.text), row, { swap: true });
    assert.ok(swapped.ok);
    assert.ok(swapped.prompt.messages[0]!.content.startsWith(fill(source, { ...row, baseline_model_response: 'cand', response: 'base' })));
  });

  it('refuses text that is not a Vertex metric prompt template', () => {
    assert.match(importVertex('# Criteria\n{response}', 'x.txt').problems[0]!.message, /# Instruction/);
  });
});
