// Shared fixtures for the template tests: cursor markers (`⟨` and `⟩` around the text a
// diagnostic must point at), two clean templates to edit, and assertions on diagnostics.
// Exported for the other template tests; the tests at the bottom keep the helpers honest.
import * as assert from 'node:assert/strict';
import type { Diagnostic, DiagnosticCode, Span } from '../../src/core/diagnostics';
import { validateTemplate } from '../../src/core/template';
import { LineIndex } from '../../src/core/text';

export const OPEN = '⟨';
export const CLOSE = '⟩';

/** Strips the markers; each ⟨…⟩ pair becomes a 1-based span of the stripped text, in order of opening. */
export function marked(source: string): { text: string; spans: Span[] } {
  let text = '';
  const opens: number[] = [];
  const pairs: [number, number][] = [];
  for (const ch of source) {
    if (ch === OPEN) opens.push(text.length);
    else if (ch === CLOSE) {
      const start = opens.pop();
      if (start === undefined) throw new Error(`unbalanced ${CLOSE} in fixture`);
      pairs.push([start, text.length]);
    } else text += ch;
  }
  if (opens.length) throw new Error(`unbalanced ${OPEN} in fixture`);
  const index = new LineIndex(text);
  pairs.sort((a, b) => a[0] - b[0]);
  return { text, spans: pairs.map(([a, b]) => index.span(a, b)) };
}

/** Just the span of a diagnostic, for deepEqual against a marker span. */
export function spanOf(d: Span | Diagnostic): Span {
  return { line: d.line, column: d.column, endLine: d.endLine, endColumn: d.endColumn };
}

/** A complete pointwise template, clean under validateTemplate; tests edit it to trigger one code. */
export const VALID = `---
name: helpfulness
kind: pointwise
scale: [1, 3]
---
# Criteria

Is the response helpful?

# Rubric

- 3: Answers every part correctly.
- 2: Answers part of it.
- 1: Misses the question.

# Evaluation steps

Read the prompt, then the response, then score.

# Task

{{prompt}}

<response>{{response}}</response>
`;

/** A complete multi-dimension pairwise template, also clean. */
export const HHH = `---
name: hhh
kind: pairwise
dimensions:
  - name: harmless
    description: Safe.
  - name: honest
    description: True.
ranking: [1, 3]
degrees: [about the same, better]
---
# Criteria

## Harmless

No harm.

## Honest

No invention.

# Rubric

- 3 Great: safe and true.
- 2 Fair: minor issues.
- 1 Bad: harmful or false.

# Evaluation steps

Compare dimension by dimension.

# Task

{{prompt}} <pair>{{response_a}} {{response_b}}</pair>
`;

/** `base` with each [from, to] replaced once; a `from` that is not there fails the test, not silently passes it. */
export function edit(base: string, ...pairs: [string, string][]): string {
  let out = base;
  for (const [from, to] of pairs) {
    assert.ok(out.includes(from), `fixture has no ${JSON.stringify(from)}`);
    out = out.replace(from, to);
  }
  return out;
}

export function withCode(diags: Diagnostic[], code: DiagnosticCode): Diagnostic[] {
  return diags.filter((d) => d.code === code);
}

/** Validates the fixture and asserts exactly one `code` diagnostic, at the marked span. */
export function expectOne(fixture: string, code: DiagnosticCode): Diagnostic {
  const { text, spans } = marked(fixture);
  const found = withCode(validateTemplate(text), code);
  assert.equal(found.length, 1, `expected one ${code}, got ${JSON.stringify(found, null, 1)}`);
  const d = found[0]!;
  if (spans[0]) assert.deepEqual(spanOf(d), spans[0]);
  return d;
}

export function expectNone(text: string, code: DiagnosticCode): void {
  const found = withCode(validateTemplate(text), code);
  assert.deepEqual(found, [], `expected no ${code}`);
}

describe('cursor markers in fixtures', () => {
  it('strips the markers and reports the marked text as a 1-based span', () => {
    const { text, spans } = marked('ab\nc⟨de⟩f');
    assert.equal(text, 'ab\ncdef');
    assert.deepEqual(spans, [{ line: 2, column: 2, endLine: 2, endColumn: 4 }]);
  });

  it('reports several spans in the order they open, across lines', () => {
    const { spans } = marked('⟨a\nb⟩ ⟨c⟩');
    assert.deepEqual(spans, [
      { line: 1, column: 1, endLine: 2, endColumn: 2 },
      { line: 2, column: 3, endLine: 2, endColumn: 4 },
    ]);
  });

  it('rejects a fixture whose markers do not pair up', () => {
    assert.throws(() => marked('a⟩'), /unbalanced/);
    assert.throws(() => marked('⟨a'), /unbalanced/);
  });
});

describe('template test fixtures', () => {
  it('edits a fixture and fails loudly when the text to replace is not there', () => {
    assert.equal(edit('a b c', ['b', 'x']), 'a x c');
    assert.throws(() => edit('a b c', ['z', 'x']), /fixture has no "z"/);
  });

  it('offers templates that validate clean', () => {
    assert.deepEqual(validateTemplate(VALID), []);
    assert.deepEqual(validateTemplate(HHH), []);
  });
});
