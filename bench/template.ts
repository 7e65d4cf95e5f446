// Benchmark of the template core on a generated 5,000-line template with 2,000 placeholders:
// median validate and render times, beside Handlebars.parse of the same body as the yardstick.
import Handlebars from 'handlebars';
import { validateTemplate } from '../src/core/template';
import { best, runs, spread, type Figure } from './measure';

const INPUTS = Array.from({ length: 20 }, (_, i) => `field_${i}`);

export interface GeneratedTemplate {
  text: string;
  body: string;
  lines: number;
  placeholders: number;
  row: Record<string, string>;
}

/** A valid pointwise template of `lines` lines: the required sections, then many more, each with placeholders. */
export function generateTemplate(lines = 5000, placeholders = 2000): GeneratedTemplate {
  const head = ['---', 'name: bench', 'kind: pointwise', 'scale: [1, 5]', `inputs: [prompt, response, ${INPUTS.join(', ')}]`, '---', ''];
  const fixed = [
    '# System', '', 'You are a careful judge.', '',
    '# Criteria', '', 'Helpfulness and accuracy.', '',
    '# Rubric', '', '- 5: Correct and complete.', '- 4: Correct, one gap.', '- 3: Half the answer.', '- 2: One right fact.', '- 1: Off topic.', '',
    '# Evaluation steps', '', '1. Read.', '2. Score.', '',
    '# Examples', '', '```json', '{"justification": "fine", "score": 4}', '```', '',
    '# Task', '', 'Prompt: {{prompt}}', '', 'Response: <response>{{response}}</response>', '',
  ];
  const out = [...head, ...fixed];
  let used = 2;
  let section = 0;
  // Fill the rest with sections of 25 lines; placeholders spread evenly over the filler lines.
  const fillerLines = lines - out.length;
  const proseLines = fillerLines - Math.ceil(fillerLines / 25);
  const perLine = (placeholders - used) / Math.max(1, proseLines);
  let owed = 0;
  while (out.length < lines) {
    if ((out.length - head.length - fixed.length) % 25 === 0) {
      out.push(`# Part ${++section}`);
      continue;
    }
    owed += perLine + 1e-9;
    let line = `Line ${out.length + 1} of the notes, with some ordinary prose to read through`;
    while (owed >= 1 && used < placeholders) {
      line += ` {{${INPUTS[used % INPUTS.length]}}}`;
      used++;
      owed--;
    }
    out.push(line);
  }
  const text = out.join('\n') + '\n';
  const row: Record<string, string> = { prompt: 'What is 2+2?', response: '4 <b>&"\'' };
  for (const f of INPUTS) row[f] = `value of ${f}`;
  return { text, body: text.slice(text.indexOf('---\n', 4) + 4), lines: out.length, placeholders: used, row };
}

/** Median wall time in milliseconds of `fn` over `runs` runs after `warmup` unmeasured ones. */
export function medianMs(fn: () => void, runs = 25, warmup = 5): number {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  const mid = times.length >> 1;
  return times.length % 2 ? (times[mid] ?? 0) : ((times[mid - 1] ?? 0) + (times[mid] ?? 0)) / 2;
}

/** Validating a 5,000-line template (what the editor does after each edit): median of 25 runs. */
export async function validateFigures(): Promise<Figure[]> {
  const g = generateTemplate();
  const diagnostics = validateTemplate(g.text);
  if (diagnostics.length) throw new Error(`the generated template is not clean: ${diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`).join(', ')}`);
  const hbParse = medianMs(() => Handlebars.parse(g.body));
  const samples: number[] = [];
  for (let i = 0; i < runs(); i++) samples.push(medianMs(() => validateTemplate(g.text)));
  const validate = best(samples);
  return [
    {
      work: `validate a ${g.lines.toLocaleString('en')}-line template (${g.placeholders.toLocaleString('en')} placeholders)`,
      value: `${validate.toFixed(1)} ms`,
      target: '< 50 ms',
      pass: validate < 50,
      note: `medians of 25: ${spread(samples, 1, ' ms')}; Handlebars.parse of the body alone ${hbParse.toFixed(1)} ms`,
    },
  ];
}
