// Vertex AI metric prompt templates: the text a PointwiseMetricPromptTemplate or
// PairwiseMetricPromptTemplate renders to (`# Instruction`, `# Evaluation` with `## Criteria`,
// `## Rating Rubric`, `## Evaluation Steps`, then the user inputs and responses) becomes a structured
// template with the same text: `{variable}` becomes `{{variable}}`, Vertex's `## …` sections count
// as the template's sections, and the verdict is the engine's JSON, as Vertex's own judge adds one.
import { parseTemplate } from '../template/parse';
import { handlebarsBody, type FormatPiece } from './pyformat';
import type { ImportResult } from './types';
import { metricName, templateText } from './write';

const VARIABLE = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function importVertex(text: string, sourceName: string): ImportResult {
  const fail = (message: string): ImportResult => ({ templates: [], problems: [{ severity: 'error', where: 'file', message }] });
  const source = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!/^# Instruction\s*$/m.test(source) || !/^# Evaluation\s*$/m.test(source)) {
    return fail('not a Vertex AI metric prompt template: expected `# Instruction` and `# Evaluation` headings');
  }
  for (const h of ['## Criteria', '## Rating Rubric']) {
    if (!new RegExp(`^${h}\\s*$`, 'm').test(source)) return fail(`the template has no \`${h}\` section`);
  }
  const pieces: FormatPiece[] = [];
  const fields: string[] = [];
  let last = 0;
  for (const m of source.matchAll(VARIABLE)) {
    if (m.index > last) pieces.push({ text: source.slice(last, m.index) });
    const name = m[1]!;
    pieces.push({ field: name });
    if (!fields.includes(name)) fields.push(name);
    last = m.index + m[0].length;
  }
  if (last < source.length) pieces.push({ text: source.slice(last) });
  const pairwise = fields.includes('baseline_model_response');
  if (!fields.includes('response')) return fail('the template has no `{response}`, the response to judge');
  const body = handlebarsBody(pieces);
  if (!body.ok) return fail(body.error);

  const name = metricName(sourceName.replace(/\.[^.]*$/, ''), 'vertex');
  const fm: Record<string, unknown> = {
    name,
    kind: pairwise ? 'pairwise' : 'pointwise',
    description: `Imported from a Vertex AI ${pairwise ? 'PairwiseMetricPromptTemplate' : 'PointwiseMetricPromptTemplate'} (${sourceName})`,
    inputs: fields,
  };
  if (!pairwise) {
    // The scale is the rubric's range of scores.
    const probe = parseTemplate(templateText({ ...fm, scale: [0, 1] }, body.source.trim()));
    const scores = probe.rubric.map((p) => p.score);
    if (scores.length < 2) return fail('the `## Rating Rubric` lists no numeric ratings (lines like `5: …`), so the scale is unknown');
    fm.scale = [Math.min(...scores), Math.max(...scores)];
  }
  const ordered = { name: fm.name, kind: fm.kind, description: fm.description, ...(fm.scale ? { scale: fm.scale } : {}), inputs: fm.inputs };
  return { templates: [{ file: `${name}.judge`, name, text: templateText(ordered, body.source.trim()), source: 'file' }], problems: [] };
}
