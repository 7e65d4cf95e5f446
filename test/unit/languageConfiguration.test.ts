import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// out/test/unit -> repository root
const FILE = path.resolve(__dirname, '..', '..', '..', 'language-configuration.json');

interface OnEnterRule {
  beforeText: string;
  action: { indent: string; appendText?: string };
}

interface LanguageConfiguration {
  comments: { lineComment?: string; blockComment: [string, string] };
  brackets: [string, string][];
  autoClosingPairs: { open: string; close: string; notIn?: string[] }[];
  surroundingPairs: [string, string][];
  folding: { offSide: boolean; markers: { start: string; end: string } };
  wordPattern: string;
  onEnterRules: OnEnterRule[];
}

const config = JSON.parse(readFileSync(FILE, 'utf8')) as LanguageConfiguration;

/** VS Code applies the first rule whose beforeText matches the text left of the cursor. */
function onEnter(lineBeforeCursor: string): string | undefined {
  const rule = config.onEnterRules.find((r) => new RegExp(r.beforeText).test(lineBeforeCursor));
  return rule?.action.appendText;
}

/** The word VS Code selects on a double click at `offset`, using the language's wordPattern. */
function wordAt(text: string, offset: number): string | undefined {
  for (const m of text.matchAll(new RegExp(config.wordPattern, 'g'))) {
    if (m.index <= offset && offset < m.index + m[0].length) return m[0];
  }
  return undefined;
}

describe('language-configuration.json', () => {
  it('toggles block comments as Handlebars comments, which never reach the judge', () => {
    assert.deepEqual(config.comments.blockComment, ['{{!--', '--}}']);
    assert.equal(config.comments.lineComment, undefined);
  });

  it('pairs mustaches, square brackets and parentheses', () => {
    for (const pair of [['{{', '}}'], ['{{{', '}}}'], ['[', ']'], ['(', ')']]) {
      assert.ok(config.brackets.some((b) => b[0] === pair[0] && b[1] === pair[1]), `bracket ${pair.join(' ')}`);
    }
    const opens = config.autoClosingPairs.map((p) => p.open);
    for (const open of ['{', '{{', '{{!--', '[', '(', '"']) assert.ok(opens.includes(open), `auto-closes ${open}`);
    const surrounds = config.surroundingPairs.map((p) => p[0]);
    for (const open of ['{', '[', '(', '"', "'", '`']) assert.ok(surrounds.includes(open), `surrounds with ${open}`);
  });

  it('continues bulleted rubric lines with the same bullet', () => {
    assert.equal(onEnter('- 5: Excellent — fully meets the criteria'), '- ');
    assert.equal(onEnter('  * nested point'), '* ');
    assert.equal(onEnter('+ plus item'), '+ ');
  });

  it('continues numbered steps with the next number', () => {
    assert.equal(onEnter('1. Read the prompt.'), '2. ');
    assert.equal(onEnter('   3. Compare the responses.'), '4. ');
    assert.equal(onEnter('9. Decide.'), '10. ');
    assert.equal(onEnter('12. Write the justification.'), '13. ');
  });

  it('does not continue empty items, front-matter fences, bold labels or decimals', () => {
    for (const line of ['- ', '1. ', '---', '**Prompt:** a question', '1.5 is a number', 'plain text']) {
      assert.equal(onEnter(line), undefined, JSON.stringify(line));
    }
  });

  it('treats a placeholder name such as response_a or @index as one word', () => {
    const text = 'Compare {{response_a}} with {{@index}} and {{this.input}}.';
    assert.equal(wordAt(text, text.indexOf('response_a') + 3), 'response_a');
    assert.equal(wordAt(text, text.indexOf('@index') + 2), '@index');
    assert.equal(wordAt(text, text.indexOf('input') + 1), 'input');
    assert.equal(wordAt(text, text.indexOf('{{')), undefined);
  });

  it('folds regions marked with Handlebars or HTML comments', () => {
    const start = new RegExp(config.folding.markers.start);
    const end = new RegExp(config.folding.markers.end);
    assert.equal(config.folding.offSide, false);
    assert.ok(start.test('{{!-- #region Rubric --}}'));
    assert.ok(start.test('  <!-- #region -->'));
    assert.ok(end.test('{{!-- #endregion --}}'));
    assert.ok(!start.test('{{!-- a comment about regions --}}'));
    assert.ok(!start.test('{{!-- #endregion --}}'));
  });
});
