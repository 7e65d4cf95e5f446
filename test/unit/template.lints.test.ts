// The judge-prompt lints: each code where it fires (at the marked text) and where it must not,
// and the quick fixes that come with undelimited-input and verdict-before-reasoning.
import * as assert from 'node:assert/strict';
import { parseTemplate, validateTemplate } from '../../src/core/template';
import { substance } from '../../src/core/template/lints';
import { fixesFor } from '../../src/extension/language/model/fixes';
import type { TextEditSpec } from '../../src/extension/language/model/edits';
import { edit, expectNone, expectOne, HHH, VALID, withCode } from './template.fixtures.test';

function apply(text: string, edits: TextEditSpec[]): string {
  return [...edits].sort((a, b) => b.start - a.start).reduce((t, e) => t.slice(0, e.start) + e.newText + t.slice(e.end), text);
}

function fixed(text: string, code: Parameters<typeof withCode>[1]): string {
  const [d] = withCode(validateTemplate(text), code);
  assert.ok(d, `no ${code}`);
  const fix = fixesFor(parseTemplate(text), d).find((f) => f.preferred);
  assert.ok(fix, `no preferred fix for ${code}`);
  return apply(text, fix.edits);
}

const EXAMPLES = (a: string, b: string) => `\n# Examples\n\n\`\`\`json\n${a}\n\`\`\`\n\n\`\`\`json\n${b}\n\`\`\`\n`;

describe('judge-prompt lints', () => {
  describe('empty-rubric-level', () => {
    it('fires as a warning on a score line left empty, as the rubric-gap quick fix leaves it', () => {
      const d = expectOne(edit(VALID, ['- 2: Answers part of it.', '⟨- 2:⟩ ']), 'empty-rubric-level');
      assert.equal(d.severity, 'warning');
      assert.match(d.message, /Score 2 has no description/);
    });

    it('fires once for a range line "2-3:" with nothing after it', () => {
      expectOne(edit(VALID, ['- 3: Answers every part correctly.\n- 2: Answers part of it.', '⟨- 2-3:⟩']), 'empty-rubric-level');
    });

    it('does not fire when every score has words after it', () => {
      expectNone(VALID, 'empty-rubric-level');
      expectNone(HHH, 'empty-rubric-level');
    });
  });

  describe('rubric-vague', () => {
    it('fires on a level described only with intensity words', () => {
      const d = expectOne(edit(VALID, ['Answers part of it.', '⟨Very good.⟩']), 'rubric-vague');
      assert.equal(d.severity, 'info');
      assert.match(d.message, /only with intensity words/);
    });

    it('fires on the later of two adjacent levels that differ only in intensity words', () => {
      const d = expectOne(edit(VALID, ['- 3: Answers every part correctly.\n- 2: Answers part of it.', '- 3: Fully answers the question.\n- 2: ⟨Partly answers the question.⟩']), 'rubric-vague');
      assert.match(d.message, /Scores 2 and 3 \(line 12\)/);
    });

    it('strips numbers, punctuation and intensity words to compare levels', () => {
      assert.equal(substance('Very good (4/5): mostly answers the question!'), 'answers question');
    });

    it('does not fire when adjacent levels name different things', () => {
      expectNone(VALID, 'rubric-vague');
      expectNone(edit(VALID, ['Answers part of it.', 'Good answer, but one step is missing.']), 'rubric-vague');
    });
  });

  describe('undelimited-input', () => {
    it('fires as a warning on a bare {{response}}', () => {
      const d = expectOne(edit(VALID, ['<response>{{response}}</response>', 'Response: ⟨{{response}}⟩']), 'undelimited-input');
      assert.equal(d.severity, 'warning');
      assert.match(d.message, /<response>…<\/response>/);
    });

    it('fires on each slot of a pair and on triple-stash', () => {
      const { length } = withCode(validateTemplate(edit(HHH, ['<pair>{{response_a}} {{response_b}}</pair>', '{{{response_a}}} {{response_b}}'])), 'undelimited-input');
      assert.equal(length, 2);
      expectOne(edit(VALID, ['<response>{{response}}</response>', '⟨{{{response}}}⟩']), 'undelimited-input');
    });

    it('fires when the tag around it is closed before it', () => {
      expectOne(edit(VALID, ['<response>{{response}}</response>', '<response></response> ⟨{{response}}⟩']), 'undelimited-input');
    });

    it('does not fire inside tags, a code fence or triple quotes, nor for {{prompt}}', () => {
      expectNone(VALID, 'undelimited-input');
      expectNone(edit(VALID, ['<response>{{response}}</response>', '<answer id="1">\nThe answer: {{response}}\n</answer>']), 'undelimited-input');
      expectNone(edit(VALID, ['<response>{{response}}</response>', '```text\n{{response}}\n```']), 'undelimited-input');
      expectNone(edit(VALID, ['<response>{{response}}</response>', '"""\n{{response}}\n"""']), 'undelimited-input');
      expectNone(edit(VALID, ['<response>{{response}}</response>', '<response>{{response}}</response>{{#if response}}(answered){{/if}}']), 'undelimited-input');
    });

    it('does not fire between start and end markers in the template\'s own words (Arena-Hard, MT-Bench, BEGIN/END)', () => {
      expectNone(edit(HHH, ['<pair>{{response_a}} {{response_b}}</pair>', "<|The Start of Assistant A's Answer|>\n{{response_a}}\n<|The End of Assistant A's Answer|>\n\n<|The Start of Assistant B's Answer|>\n{{response_b}}\n<|The End of Assistant B's Answer|>"]), 'undelimited-input');
      expectNone(edit(VALID, ['<response>{{response}}</response>', '[The Start of Assistant\'s Answer]\n{{response}}\n[The End of Assistant\'s Answer]']), 'undelimited-input');
      expectNone(edit(VALID, ['<response>{{response}}</response>', '### BEGIN RESPONSE ### {{response}} ### END RESPONSE ###']), 'undelimited-input');
    });

    it('still fires when the markers do not pair: another name, no end, or prose around it', () => {
      expectOne(edit(VALID, ['<response>{{response}}</response>', "<|The Start of Assistant A's Answer|>\n⟨{{response}}⟩\n<|The End of Assistant B's Answer|>"]), 'undelimited-input');
      expectOne(edit(VALID, ['<response>{{response}}</response>', "<|The Start of Assistant A's Answer|>\n⟨{{response}}⟩\nNow judge it."]), 'undelimited-input');
    });

    it('quick fix: wraps a placeholder alone on its line in tags on lines of their own', () => {
      const text = edit(VALID, ['<response>{{response}}</response>', 'Response:\n  {{response}}']);
      const out = fixed(text, 'undelimited-input');
      assert.ok(out.endsWith('Response:\n  <response>\n  {{response}}\n  </response>\n'), out);
      expectNone(out, 'undelimited-input');
    });

    it('quick fix: wraps an inline placeholder in place', () => {
      const out = fixed(edit(VALID, ['<response>{{response}}</response>', 'Response: {{response}}.']), 'undelimited-input');
      assert.ok(out.endsWith('Response: <response>{{response}}</response>.\n'), out);
    });
  });

  describe('verdict-before-reasoning', () => {
    it('fires at the "score" key of an example that gives the score first', () => {
      const fixture = edit(VALID, ['# Task', `${EXAMPLES('{⟨"score"⟩: 3, "justification": "All parts answered."}', '{"justification": "Wrong.", "score": 1}')}\n# Task`]);
      const d = expectOne(fixture, 'verdict-before-reasoning');
      assert.match(d.message, /"score" before "justification"/);
    });

    it('fires in an Output format that lists "winner" before "justification"', () => {
      expectOne(edit(HHH, ['# Task', '# Output format\n\nReply {⟨"winner"⟩: "A", "justification": "..."}\n\n# Task']), 'verdict-before-reasoning');
    });

    it('does not fire when the reasoning comes first, or for prose that mentions the score', () => {
      expectNone(edit(VALID, ['# Task', `${EXAMPLES('{"justification": "All parts.", "score": 3}', '{"reasoning": "Wrong.", "score": 1}')}\n# Task`]), 'verdict-before-reasoning');
      expectNone(edit(VALID, ['# Task', '# Output format\n\nGive the score, then a "justification" field first.\n\n# Task']), 'verdict-before-reasoning');
    });

    it('quick fix: rewrites the example with the justification first', () => {
      const text = edit(VALID, ['# Task', `${EXAMPLES('{"score": 3, "justification": "All parts answered."}', '{"justification": "Wrong.", "score": 1}')}\n# Task`]);
      const out = fixed(text, 'verdict-before-reasoning');
      assert.ok(out.includes('```json\n{"justification": "All parts answered.", "score": 3}\n```'), out);
      expectNone(out, 'verdict-before-reasoning');
    });
  });

  describe('examples-unbalanced', () => {
    it('fires as info on the Examples heading when every score is above the middle', () => {
      const fixture = edit(VALID, ['# Task', `\n⟨# Examples⟩\n\n\`\`\`json\n{"justification": "a", "score": 3}\n\`\`\`\n\n\`\`\`json\n{"justification": "b", "score": 3}\n\`\`\`\n\n# Task`]);
      const d = expectOne(fixture, 'examples-unbalanced');
      assert.equal(d.severity, 'info');
      assert.match(d.message, /high side of 1–3 \(3, 3\).*low score/);
    });

    it('fires for pairwise examples that all pick the same slot', () => {
      const pair = edit(VALID, ['kind: pointwise\nscale: [1, 3]', 'kind: pairwise'], ['<response>{{response}}</response>', '<a>{{response_a}}</a> <b>{{response_b}}</b>']);
      const fixture = edit(pair, ['# Task', `${EXAMPLES('{"justification": "a", "winner": "A", "confidence": 0.9}', '{"justification": "b", "winner": "A", "confidence": 0.6}')}\n# Task`]);
      assert.match(expectOne(fixture, 'examples-unbalanced').message, /Every example's winner is A.*where B wins/);
    });

    it('does not fire for examples on both sides, or for a single example', () => {
      expectNone(edit(VALID, ['# Task', `${EXAMPLES('{"justification": "a", "score": 3}', '{"justification": "b", "score": 1}')}\n# Task`]), 'examples-unbalanced');
      expectNone(edit(VALID, ['# Task', '# Examples\n\n```json\n{"justification": "a", "score": 3}\n```\n\n# Task']), 'examples-unbalanced');
    });
  });

  describe('placeholder-before-rubric', () => {
    it('fires once, as info, at the first row value placed before the rubric (prefix caches cannot hold the rubric)', () => {
      const d = expectOne(edit(VALID, ['Is the response helpful?', 'Is ⟨{{response}}⟩ helpful for {{prompt}}?']), 'placeholder-before-rubric');
      assert.equal(d.severity, 'info');
      assert.match(d.message, /`\{\{response\}\}` comes before the rubric/);
    });

    it('does not fire when every row value comes after the rubric', () => {
      expectNone(VALID, 'placeholder-before-rubric');
      expectNone(HHH, 'placeholder-before-rubric');
    });
  });
});
