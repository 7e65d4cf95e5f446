// The faster scans in the template core find what the slower forms they replaced found.
import * as assert from 'node:assert/strict';
import { MAX_BLOCK_DEPTH, tooDeep } from '../../src/core/template/placeholders';
import { parseSections } from '../../src/core/template/sections';
import { validateTemplate } from '../../src/core/template';
import { LineIndex } from '../../src/core/text';
import { mulberry32 } from '../../src/core/random';

/** The regular expression tooDeep was written from. */
function tooDeepByRegex(source: string): { offset: number; length: number } | undefined {
  const re = /\{\{~?\s*([#/^])\s*(\}?)[^}]*\}?\}?/g;
  let depth = 0;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    if (m[1] === '/') depth = Math.max(0, depth - 1);
    else if (!(m[1] === '^' && m[2])) {
      if (++depth > MAX_BLOCK_DEPTH) return { offset: m.index, length: m[0].length };
    }
  }
  return undefined;
}

describe('template scans', () => {
  it('finds the first block opened too deep where the regular expression does', () => {
    const rng = mulberry32(0xb10c);
    const pieces = ['{{#each x}}', '{{/each}}', '{{^}}', '{{^ }}', '{{~# if a}}', '{{ / if }}', '{{{#x}}}', '{{', '}}', '}', ' ', '\u00a0', '\u2028', '\n', 'text', '{{#', '{{x}}', '~', '^', '#'];
    for (let k = 0; k < 400; k++) {
      const n = Math.floor(rng() * 400);
      const source = Array.from({ length: n }, () => pieces[Math.floor(rng() * pieces.length)]).join('');
      assert.deepEqual(tooDeep(source), tooDeepByRegex(source), JSON.stringify(source));
    }
    const deep = '{{#if a}}'.repeat(MAX_BLOCK_DEPTH + 1);
    assert.deepEqual(tooDeep(deep), tooDeepByRegex(deep));
    assert.ok(tooDeep(deep));
  });

  it('reads CRLF, lone CR and NUL bodies into the same sections and code lines as LF ones', () => {
    const lf = '# Criteria\nHelpful.\n\n```\n# not a heading\n```\n# Rubric\n- 1: bad\n';
    const index = (t: string) => new LineIndex(t);
    const plain = parseSections(lf, 0, index(lf));
    for (const variant of [lf.replace(/\n/g, '\r\n'), lf.replace(/\n/g, '\r'), lf.replace('Helpful', 'Help\0ful')]) {
      const s = parseSections(variant, 0, index(variant));
      assert.deepEqual([s.sections.map((x) => [x.key, x.heading.line]), [...s.codeLines], [...s.headingLines]], [plain.sections.map((x) => [x.key, x.heading.line]), [...plain.codeLines], [...plain.headingLines]]);
    }
  });

  it('still reports a partial, a bad block and an unclosed one', () => {
    const head = '---\nname: m\nkind: pointwise\nscale: [1, 5]\n---\n# Criteria\nc\n# Rubric\n- 1: a\n- 5: b\n# Evaluation steps\ns\n';
    const codes = (body: string) => validateTemplate(head + body).filter((d) => d.code === 'handlebars-syntax').map((d) => d.message);
    assert.match(codes('{{prompt}} {{response}}\n  {{> part}}\n')[0] ?? '', /Partials/);
    assert.match(codes('{{prompt}} {{response}} {{#if x}}\n')[0] ?? '', /never closed/);
    assert.match(codes('{{prompt}} {{response}} {{#if x}}{{/each}}\n')[0] ?? '', /must close with the same/);
  });
});
