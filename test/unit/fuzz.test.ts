import { mulberry32 } from '../../src/core/random';
// Fuzzing the template core: thousands of seeded mutations of the example templates, plus the
// inputs the issue names. validateTemplate and renderTemplate must never throw, and every
// diagnostic must point inside the document.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIAGNOSTIC_CODES, type Diagnostic } from '../../src/core/diagnostics';
import { LineIndex } from '../../src/core/text';
import { parseTemplate, renderTemplate, validateTemplate } from '../../src/core/template';

const EXAMPLES = path.resolve(__dirname, '../../../examples');
const MUTATIONS = 3200;
const SEED = 0x5eed;

export { mulberry32 };

/** Every standard field of both kinds, so a render gets past the missing-field check when the template allows. */
const ROW = {
  prompt: 'P <b>&"\' {{x}}',
  response: 'R',
  response_a: 'A',
  response_b: 'B',
  baseline_model_response: 'BASE',
  reference: 'REF',
  context: 'CTX',
};

const VALUES: string[] = Object.values(ROW);

// Fragments that hit the parsers' edges: Handlebars tags, fences, headings, rubric lines, line breaks.
const FRAGMENTS = ['{{', '}}', '{{#each x}}', '{{/each}}', '{{/if}}', '{{else}}', '{{!--', '--}}', '{{> p}}', '{{respnse}}', '---', '\n---\n', '\n# Rubric\n', '\n# Examples\n```json\n{', '```', '~~~', '- 9: ', '- 2-3: ', '## x\n', '\r', '\r\n', '\u2028', '\u0000', '\uFEFF', '\uD800', 'scale: [5, 1]', 'kind: pairwise\n', '  - ', ': [', '{"score": 7}'];

type Rng = () => number;

const int = (rng: Rng, n: number) => Math.floor(rng() * n);

function randomChars(rng: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(rng() < 0.5 ? int(rng, 128) : int(rng, 0x10000));
  return s;
}

/** One random edit: a deletion, a duplication, random characters, a syntax fragment, a truncation or a swap. */
export function mutate(text: string, rng: Rng): string {
  const at = int(rng, text.length + 1);
  const len = 1 + int(rng, 40);
  switch (int(rng, 6)) {
    case 0:
      return text.slice(0, at) + text.slice(at + len);
    case 1: {
      const to = int(rng, text.length + 1);
      return text.slice(0, to) + text.slice(at, at + len * 4) + text.slice(to);
    }
    case 2:
      return text.slice(0, at) + randomChars(rng, 1 + int(rng, 8)) + text.slice(at);
    case 3:
      return text.slice(0, at) + (FRAGMENTS[int(rng, FRAGMENTS.length)] ?? '') + text.slice(at);
    case 4:
      return text.slice(0, at);
    default: {
      const b = int(rng, text.length + 1);
      const [x, y] = at < b ? [at, b] : [b, at];
      return text.slice(y, y + len) + text.slice(x + len, y) + text.slice(x, x + len) + text.slice(y + len);
    }
  }
}

/** Diagnostics are well-formed and point inside the document. */
function checkDiagnostics(text: string, diags: Diagnostic[]): void {
  assert.ok(Array.isArray(diags));
  const index = new LineIndex(text);
  for (const d of diags) {
    assert.ok((DIAGNOSTIC_CODES as readonly string[]).includes(d.code), `unknown code ${d.code}`);
    assert.ok(['error', 'warning', 'info'].includes(d.severity));
    assert.ok(d.message.length > 0);
    for (const [line, column] of [[d.line, d.column], [d.endLine, d.endColumn]] as const) {
      assert.ok(Number.isInteger(line) && line >= 1 && line <= index.lineCount, `${d.code}: line ${line} of ${index.lineCount}`);
      assert.ok(Number.isInteger(column) && column >= 1 && column <= index.lineText(line).length + 1, `${d.code}: column ${column} on line ${line}`);
    }
    assert.ok(d.endLine > d.line || (d.endLine === d.line && d.endColumn >= d.column), `${d.code}: span ends before it starts`);
  }
}

/** Runs both entry points; a throw or a malformed result fails with the text that caused it. */
function exercise(text: string, what: string): void {
  try {
    checkDiagnostics(text, validateTemplate(text));
    const t = parseTemplate(text);
    for (const swap of [false, true]) {
      const outcome = renderTemplate(t, ROW, { row: 1, swap });
      assert.equal(typeof outcome.ok, 'boolean');
      if (outcome.ok) {
        const { messages, values } = outcome.prompt;
        assert.ok(messages.every((m) => typeof m.content === 'string' && (m.role === 'system' || m.role === 'user')));
        // Every highlighted value covers exactly a value of the row (swap may move it to the other slot).
        for (const v of values) assert.ok(VALUES.includes(messages[v.messageIndex]?.content.slice(v.start, v.end) ?? ''), `mark ${JSON.stringify(v)}`);
      } else assert.ok(outcome.error.length > 0);
    }
  } catch (e) {
    const shown = text.length > 600 ? `${JSON.stringify(text.slice(0, 600))}… (${text.length} chars)` : JSON.stringify(text);
    assert.fail(`${what}: ${(e as Error).stack ?? e}\ninput: ${shown}`);
  }
}

describe('fuzzing validateTemplate and renderTemplate', () => {
  const examples = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.judge')).sort().map((f) => ({ name: f, text: fs.readFileSync(path.join(EXAMPLES, f), 'utf8') }));

  it('has example templates to mutate', () => {
    assert.ok(examples.length >= 3);
  });

  it(`never throws on ${MUTATIONS} seeded mutations of the examples, with LF and CRLF line breaks`, function () {
    this.timeout(60_000);
    const bases = [...examples, ...examples.map((e) => ({ name: `${e.name} (CRLF)`, text: e.text.replace(/\n/g, '\r\n') }))];
    const rng = mulberry32(SEED);
    for (let i = 0; i < MUTATIONS; i++) {
      const base = bases[i % bases.length]!;
      let text = base.text;
      const edits = 1 + int(rng, 4);
      for (let k = 0; k < edits; k++) text = mutate(text, rng);
      exercise(text, `seed ${SEED}, mutation ${i} of ${base.name}`);
    }
  });

  it('never throws on an empty template', () => {
    exercise('', 'empty');
    assert.equal(validateTemplate('')[0]?.code, 'front-matter-missing');
  });

  it('never throws on binary bytes read as UTF-8 or as Latin-1', () => {
    const rng = mulberry32(7);
    const bytes = Buffer.from(Array.from({ length: 4096 }, () => int(rng, 256)));
    exercise(bytes.toString('utf8'), 'binary as utf8');
    exercise(bytes.toString('latin1'), 'binary as latin1');
    exercise(`${examples[0]!.text}\n${bytes.toString('latin1')}`, 'example followed by binary');
  });

  it('never throws on a 5 MB template', function () {
    this.timeout(60_000);
    const example = examples.find((e) => e.name === 'helpfulness.judge') ?? examples[0]!;
    const body = example.text.slice(example.text.indexOf('\n---\n', 4) + 5);
    const head = example.text.slice(0, example.text.length - body.length);
    const text = head + body.repeat(Math.ceil((5 * 1024 * 1024) / body.length));
    assert.ok(text.length >= 5 * 1024 * 1024);
    exercise(text, '5 MB template');
  });

  it('never throws on front matter that is never closed', () => {
    exercise('---\nname: x\nkind: pointwise\nscale: [1, 5]\n\n# Criteria\n\n{{response}}\n', 'unterminated front matter');
    assert.equal(validateTemplate('---\nname: x\n')[0]?.code, 'front-matter-invalid');
  });

  it('never throws on an {{#each}} that is never closed, alone or nested many times', () => {
    for (const example of examples) exercise(`${example.text}\n{{#each response}}\n{{this}}\n`, `${example.name} + unclosed each`);
    exercise(`${examples[0]!.text}\n${'{{#each x}}'.repeat(20000)}`, 'twenty thousand unclosed each');
    exercise(`${examples[0]!.text}\n${'{{#each x}}'.repeat(3000)}${'{{/each}}'.repeat(3000)}`, 'three thousand nested each');
  });
});
