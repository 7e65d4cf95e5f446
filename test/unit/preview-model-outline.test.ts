import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseTemplate } from '../../src/core/template';
import { foldingRanges } from '../../src/extension/language/model/folding';
import { hoverAt, type HoverPart } from '../../src/extension/language/model/hover';
import { NO_SAMPLE } from '../../src/extension/language/model/edits';
import { outline, type OutlineSymbol } from '../../src/extension/language/model/symbols';

const examples = path.resolve(__dirname, '../../../examples');
const read = (name: string) => readFileSync(path.join(examples, name), 'utf8');

function brief(symbols: OutlineSymbol[]): unknown[] {
  return symbols.map((s) => (s.children.length ? [s.kind, s.name, brief(s.children)] : [s.kind, s.name]));
}

function text(parts: HoverPart[]): string {
  return parts.map((p) => ('md' in p ? p.md : 'text' in p ? p.text : `<code>${p.code}</code>`)).join('\n');
}

describe('outline', () => {
  it('lists the sections of hhh.judge with the rubric levels and the criteria dimensions as children', () => {
    const symbols = outline(parseTemplate(read('hhh.judge')));
    assert.deepEqual(
      symbols.map((s) => s.name),
      ['hhh (pairwise)', 'System', 'Criteria', 'Rubric', 'Evaluation steps', 'Task'],
    );
    const rubric = symbols.find((s) => s.name === 'Rubric');
    assert.deepEqual(rubric?.children.map((c) => [c.kind, c.name, c.firstLine]), [
      ['rubricPoint', '7 Great', 54],
      ['rubricPoint', '6 Between great and mediocre', 55],
      ['rubricPoint', '5 Mediocre', 56],
      ['rubricPoint', '4 Between mediocre and bad', 57],
      ['rubricPoint', '3 Bad', 58],
      ['rubricPoint', '2 Between bad and terrible', 59],
      ['rubricPoint', '1 Terrible', 60],
    ]);
    assert.deepEqual(brief(symbols.filter((s) => s.name === 'Criteria')), [['section', 'Criteria', [['heading', 'Harmless'], ['heading', 'Honest'], ['heading', 'Helpful']]]]);
  });

  it('lists the examples of helpfulness.judge under Examples and the front-matter keys under the metric', () => {
    const symbols = outline(parseTemplate(read('helpfulness.judge')));
    const examplesSection = symbols.find((s) => s.name === 'Examples');
    assert.deepEqual(examplesSection?.children.map((c) => [c.kind, c.name, c.firstLine, c.lastLine]), [
      ['example', 'Example 1', 41, 48],
      ['example', 'Example 2', 50, 57],
    ]);
    const fm = symbols[0];
    assert.deepEqual(fm?.children.map((c) => [c.name, c.detail]), [['name', 'helpfulness'], ['kind', 'pointwise'], ['description', "How well a response meets the user's actual need, on a 1–5 …"], ['scale', '[1, 5]'], ['inputs', '[prompt, response]'], ['model', '']]);
  });

  it('numbers untitled expected outputs when Examples has no sub-headings, and marks a non-standard section', () => {
    const t = parseTemplate('---\nname: x\nkind: pointwise\nscale: [0, 1]\n---\n\n# Examples\n\nIn: a\n\n```json\n{"score": 1}\n```\n\n# Notes\n\nfree text\n');
    assert.deepEqual(brief(outline(t).slice(1)), [['section', 'Examples', [['example', 'Example 1']]], ['otherSection', 'Notes']]);
  });

  it('lets every symbol contain its children', () => {
    const check = (s: OutlineSymbol) => {
      for (const c of s.children) {
        assert.ok(c.firstLine >= s.firstLine && c.lastLine <= s.lastLine, `${c.name} outside ${s.name}`);
        check(c);
      }
    };
    for (const f of ['hhh.judge', 'helpfulness.judge', 'fluency_pairwise.judge', 'pass_fail.judge']) outline(parseTemplate(read(f))).forEach(check);
  });
});

describe('folding', () => {
  it('folds the front matter, each section without its trailing blank lines, sub-headings and code fences', () => {
    const folds = foldingRanges(parseTemplate(read('helpfulness.judge')));
    assert.deepEqual(folds.map((f) => [f.start, f.end, f.kind]), [
      [1, 10, 'region'],
      [12, 15, 'region'],
      [17, 21, 'region'],
      [23, 29, 'region'],
      [31, 37, 'region'],
      [39, 57, 'region'],
      [41, 48, 'region'],
      [46, 48, 'code'],
      [50, 57, 'region'],
      [55, 57, 'code'],
      [59, 67, 'region'],
    ]);
  });

  it('folds #region markers written as Handlebars or HTML comments', () => {
    const t = parseTemplate('---\nname: x\nkind: pointwise\nscale: [0, 1]\n---\n\n{{!-- #region notes --}}\na\n<!-- #region inner -->\nb\n<!-- #endregion -->\n{{!-- #endregion --}}\n');
    const regions = foldingRanges(t).filter((f) => f.start >= 7).map((f) => [f.start, f.end]);
    assert.deepEqual(regions, [[7, 12], [9, 11]]);
  });
});

describe('hover', () => {
  const t = parseTemplate(read('helpfulness.judge'));
  const offsetOf = (needle: string, delta = 2) => t.text.indexOf(needle) + delta;

  it('says where a placeholder comes from and shows its value in the chosen row', () => {
    const info = hoverAt(t, offsetOf('{{prompt}}', 4), { columns: ['prompt'], record: { prompt: 'How many days are in a leap year?' }, row: 1, dataset: 'helpfulness.jsonl' });
    assert.ok(info);
    assert.equal(t.text.slice(info.start, info.end), 'prompt');
    assert.match(text(info.parts), /declared in `inputs` \(also a standard pointwise field\)/);
    assert.match(text(info.parts), /Value in row 1 of helpfulness\.jsonl:\n<code>How many days are in a leap year\?<\/code>/);
  });

  it('says when the chosen row lacks the field, and when no dataset is chosen', () => {
    const missing = hoverAt(t, offsetOf('{{response}}'), { columns: [], record: {}, row: 3, dataset: 'd.jsonl' });
    assert.match(text(missing!.parts), /Missing in row 3 of d\.jsonl: rendering this row fails\./);
    assert.match(text(hoverAt(t, offsetOf('{{response}}'), NO_SAMPLE)!.parts), /No dataset chosen/);
  });

  it('describes a rubric point and whether it is within the scale', () => {
    const info = hoverAt(t, offsetOf('- 4: Solves'), NO_SAMPLE);
    assert.match(text(info!.parts), /\*\*Rubric point\*\* score 4\nSolves the request with a minor gap.*\nWithin the scale 1–5\./);
  });

  it('explains a front-matter key, nested model keys included', () => {
    assert.match(text(hoverAt(t, offsetOf('scale:', 1), NO_SAMPLE)!.parts), /\*\*scale\*\* — Score range \(pointwise\)/);
    assert.match(text(hoverAt(t, offsetOf('temperature:', 1), NO_SAMPLE)!.parts), /\*\*model\.temperature\*\*/);
    assert.equal(hoverAt(t, offsetOf('pointwise', 1), NO_SAMPLE), undefined);
  });
});
