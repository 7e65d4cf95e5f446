import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkRules, type DimensionalReply } from '../../src/core/judge/strategies/dimensions';
import type { Diagnostic } from '../../src/core/diagnostics';
import { parseTemplate, validateTemplate, type TemplateConfig } from '../../src/core/template';

// out/test/unit -> repository root
const ROOT = path.resolve(__dirname, '..', '..', '..');
const FILE = path.join(ROOT, 'snippets', 'judge.code-snippets');

interface Snippet {
  prefix: string | string[];
  body: string | string[];
  description?: string;
}

const snippets = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, Snippet>;

function byPrefix(prefix: string): Snippet {
  const found = Object.values(snippets).find((s) => [s.prefix].flat().includes(prefix));
  assert.ok(found, `no snippet with prefix ${prefix} in ${FILE}`);
  return found;
}

function bodyText(s: Snippet): string {
  return [s.body].flat().join('\n');
}

/** What inserting the snippet and accepting every default produces (no nesting, as in our snippets). */
function expand(body: string): string {
  return body
    .replace(/(?<!\\)\$\{\d+\|([^,|]*)[^|]*\|\}/g, '$1')
    .replace(/(?<!\\)\$\{\d+:((?:[^}\\]|\\.)*)\}/g, (_m, text: string) => text.replace(/\\(.)/g, '$1'))
    .replace(/(?<!\\)\$(?:\{\d+\}|\d+)/g, '')
    .replace(/\\([$}\\])/g, '$1');
}

/** Tab-stop numbers in order of appearance ($0 included). */
function tabStops(body: string): number[] {
  return [...body.matchAll(/(?<!\\)\$(?:(\d+)|\{(\d+)[:|}])/g)].map((m) => Number(m[1] ?? m[2]));
}

function problems(diagnostics: Diagnostic[]): string {
  return diagnostics.map((d) => `  ${d.line}:${d.column} ${d.severity} ${d.code}: ${d.message}`).join('\n');
}

function notInfo(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity !== 'info');
}

function pointwise(scale: [number, number], rubricLines: string, extra = ''): string {
  return [
    '---',
    'name: snippet_check',
    'kind: pointwise',
    `scale: [${scale[0]}, ${scale[1]}]`,
    '---',
    '# Criteria',
    'The response is correct.',
    '# Rubric',
    rubricLines,
    '# Evaluation steps',
    '1. Read {{prompt}} and <response>{{response}}</response>.',
    extra,
  ].join('\n');
}

const WHOLE_TEMPLATES = ['template-pointwise', 'template-pairwise', 'template-hhh', 'template-criteria'];

describe('snippets/judge.code-snippets', () => {
  it('gives every snippet a prefix, a description and a body made of strings', () => {
    for (const [name, s] of Object.entries(snippets)) {
      assert.ok([s.prefix].flat().every((p) => typeof p === 'string' && p.length > 0), `${name}: prefix`);
      assert.equal(typeof s.description, 'string', `${name}: description`);
      assert.ok(typeof s.body === 'string' || (Array.isArray(s.body) && s.body.every((l) => typeof l === 'string')), `${name}: body`);
    }
  });

  it('offers the documented prefixes, each exactly once', () => {
    const prefixes = Object.values(snippets).flatMap((s) => [s.prefix].flat());
    assert.equal(new Set(prefixes).size, prefixes.length, `duplicate prefixes: ${prefixes.join(', ')}`);
    for (const p of ['rubric-1-3', 'rubric-1-5', 'rubric-1-7', 'rubric-1-10', 'rubric-pass-fail', 'criterion', 'example', 'steps', ...WHOLE_TEMPLATES]) {
      assert.ok(prefixes.includes(p), `missing prefix ${p}`);
    }
  });

  it('numbers tab stops from 1 without gaps and ends every snippet at $0', () => {
    for (const [name, s] of Object.entries(snippets)) {
      const stops = tabStops(bodyText(s));
      assert.equal(stops.filter((n) => n === 0).length, 1, `${name}: needs exactly one $0`);
      const numbered = [...new Set(stops.filter((n) => n > 0))].sort((a, b) => a - b);
      assert.deepEqual(numbered, numbered.map((_, i) => i + 1), `${name}: tab stops ${numbered.join(', ')}`);
    }
  });

  it('leaves no snippet syntax behind once the defaults are accepted', () => {
    for (const [name, s] of Object.entries(snippets)) {
      const text = expand(bodyText(s));
      assert.doesNotMatch(text, /\$\{|\$\d/, `${name}: unexpanded tab stop (a literal $ must be written \\$)`);
    }
  });

  it('expands a placeholder, a choice and an escaped dollar the way VS Code does', () => {
    assert.equal(expand('- ${1:a \\} b} ${2|B,A|} \\$5 $0'), '- a } b B $5 ');
  });
});

describe('rubric snippets', () => {
  const cases: [string, [number, number]][] = [
    ['rubric-1-3', [1, 3]],
    ['rubric-1-5', [1, 5]],
    ['rubric-1-7', [1, 7]],
    ['rubric-1-10', [1, 10]],
    ['rubric-pass-fail', [0, 1]],
  ];
  for (const [prefix, scale] of cases) {
    it(`${prefix} describes each score of [${scale.join(', ')}] on one line of its own`, () => {
      const lines = expand(bodyText(byPrefix(prefix))).trimEnd();
      const text = pointwise(scale, lines);
      const t = parseTemplate(text);
      const scores = t.rubric.map((p) => p.score).sort((a, b) => a - b);
      const wanted = Array.from({ length: scale[1] - scale[0] + 1 }, (_, i) => scale[0] + i);
      assert.deepEqual(scores, wanted);
      assert.equal(lines.split('\n').length, wanted.length, 'one line per score point');
      assert.ok(t.rubric.every((p) => p.description.length > 0), 'every point has a description');
      const found = notInfo(validateTemplate(text));
      assert.deepEqual(found, [], problems(found));
    });
  }
});

describe('section snippets', () => {
  it('example gives a few-shot block whose expected output is a valid 1-5 reply', () => {
    const example = expand(bodyText(byPrefix('example')));
    const text = pointwise([1, 5], ['- 5: a', '- 4: b', '- 3: c', '- 2: d', '- 1: e'].join('\n'), `# Examples\n\n${example}`);
    const t = parseTemplate(text);
    assert.equal(t.examples.length, 1);
    assert.deepEqual(Object.keys(t.examples[0]?.value as object), ['justification', 'score']);
    const found = notInfo(validateTemplate(text));
    assert.deepEqual(found, [], problems(found));
  });

  it('example-pairwise gives a few-shot block whose expected output is a valid pairwise reply', () => {
    const template = expand(bodyText(byPrefix('template-pairwise')));
    const text = `${template}\n# Examples\n\n${expand(bodyText(byPrefix('example-pairwise')))}`;
    const t = parseTemplate(text);
    assert.equal(t.examples.length, 1);
    assert.deepEqual(t.examples[0]?.value, { justification: 'B is correct; A names the wrong planet.', winner: 'B', confidence: 0.9 });
    const found = notInfo(validateTemplate(text));
    assert.deepEqual(found, [], problems(found));
  });

  it('steps and criterion produce a numbered list and a bullet', () => {
    assert.match(expand(bodyText(byPrefix('steps'))), /^1\. .+\n2\. .+\n3\. .+\n4\. .+\n$/);
    assert.match(expand(bodyText(byPrefix('criterion'))), /^- \*\*.+\*\*: .+\n$/);
  });
});

describe('whole-template snippets', () => {
  for (const prefix of WHOLE_TEMPLATES) {
    it(`${prefix} is a template that validates with no errors or warnings`, () => {
      const text = expand(bodyText(byPrefix(prefix)));
      const t = parseTemplate(text);
      assert.ok(t.config, `front matter did not parse:\n${problems(t.diagnostics)}`);
      const found = notInfo(validateTemplate(text));
      assert.deepEqual(found, [], problems(found));
    });
  }

  it('template-pointwise declares a 1-5 scale and places both placeholders', () => {
    const t = parseTemplate(expand(bodyText(byPrefix('template-pointwise'))));
    assert.deepEqual(t.config?.scale, { min: 1, max: 5 });
    assert.deepEqual(new Set(t.placeholders.map((p) => p.head)), new Set(['prompt', 'response']));
  });

  it('template-pairwise places the prompt and both responses', () => {
    const t = parseTemplate(expand(bodyText(byPrefix('template-pairwise'))));
    assert.equal(t.config?.kind, 'pairwise');
    assert.deepEqual(new Set(t.placeholders.map((p) => p.head)), new Set(['prompt', 'response_a', 'response_b']));
  });
});

describe('criteria snippets', () => {
  it('template-criteria declares two weighted criteria and names their rubric subsections after them', () => {
    const t = parseTemplate(expand(bodyText(byPrefix('template-criteria'))));
    assert.deepEqual(t.config?.criteria?.map((c) => [c.name, c.weight]), [['accuracy', 0.6], ['completeness', 0.4]]);
  });

  it('criterion-rubric adds a subsection that covers the 1-5 scale for a new criterion', () => {
    const base = expand(bodyText(byPrefix('template-criteria')));
    const text = base
      .replace('    weight: 0.4\n', '    weight: 0.2\n  - name: criterion_name\n    description: Another.\n    weight: 0.2\n')
      .replace('# Evaluation steps', `${expand(bodyText(byPrefix('criterion-rubric')))}\n# Evaluation steps`);
    const found = notInfo(validateTemplate(text));
    assert.deepEqual(found, [], problems(found));
  });
});

describe('template-hhh', () => {
  const text = expand(bodyText(byPrefix('template-hhh')));
  const t = parseTemplate(text);
  const config = t.config as TemplateConfig;

  it('declares the dimensions in priority order, the 1-7 ranking and the four degrees', () => {
    assert.equal(config.kind, 'pairwise');
    assert.deepEqual(config.dimensions?.map((d) => d.name), ['harmless', 'honest', 'helpful']);
    assert.ok(config.dimensions?.every((d) => d.description.length > 20));
    assert.deepEqual(config.ranking, { min: 1, max: 7 });
    assert.deepEqual(config.degrees, ['about the same', 'slightly better', 'better', 'significantly better']);
  });

  it('describes every ranking level from 7 down to 1 in its rubric', () => {
    assert.deepEqual(t.rubric.map((p) => p.score), [7, 6, 5, 4, 3, 2, 1]);
  });

  it('names each dimension in a Criteria subheading, in priority order', () => {
    const headings = [...text.matchAll(/^## (Harmless|Honest|Helpful)$/gm)].map((m) => m[1]);
    assert.deepEqual(headings, ['Harmless', 'Honest', 'Helpful']);
  });

  it('shows the prompt and both responses to the judge', () => {
    assert.deepEqual(new Set(t.placeholders.map((p) => p.head)), new Set(['prompt', 'response_a', 'response_b']));
  });

  it('states the same ranking-gap table that the judge engine enforces', () => {
    // Rows look like "| 4 | better or significantly better |"; "5 or 6" covers both gaps.
    const table = new Map<number, string[]>();
    for (const m of text.matchAll(/^\| (\d+(?: or \d+)?) \| ([a-z ]+?) \|$/gm)) {
      for (const gap of (m[1] ?? '').split(' or ')) table.set(Number(gap), (m[2] ?? '').split(' or '));
    }
    assert.deepEqual([...table.keys()], [0, 1, 2, 3, 4, 5, 6]);
    const degrees = config.degrees ?? [];
    for (const [gap, allowed] of table) {
      for (const degree of degrees) {
        const tie = degree === degrees[0];
        const verdict = { winner: tie ? ('TIE' as const) : ('A' as const), degree };
        const reply: DimensionalReply = {
          justification: 'x',
          dimensions: { harmless: verdict, honest: { winner: 'TIE', degree: degrees[0] ?? '' }, helpful: { winner: 'TIE', degree: degrees[0] ?? '' } },
          ranking: { A: 1 + gap, B: 1 },
          deflection: { A: false, B: false },
          overall: verdict,
        };
        const flagged = checkRules(reply, config, 1).some((v) => v.rule === 'ranking-gap');
        assert.equal(!flagged, allowed.includes(degree), `gap ${gap}, degree "${degree}": the template says ${allowed.includes(degree) ? 'allowed' : 'not allowed'}`);
      }
    }
  });
});
