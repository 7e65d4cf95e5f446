// Editor help for multi-criterion templates: completion, hover, outline and folding.
import * as assert from 'node:assert/strict';
import { parseTemplate } from '../../src/core/template';
import { completionsAt } from '../../src/extension/language/model/completion';
import { NO_SAMPLE } from '../../src/extension/language/model/edits';
import { foldingRanges } from '../../src/extension/language/model/folding';
import { hoverAt, type HoverPart } from '../../src/extension/language/model/hover';
import { outline } from '../../src/extension/language/model/symbols';
import { CRITERIA } from './template.criteria.test';

function at(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf('‸');
  assert.ok(offset >= 0, 'fixture needs a ‸ cursor marker');
  return { text: marked.slice(0, offset) + marked.slice(offset + 1), offset };
}

const partText = (parts: HoverPart[]) => parts.map((p) => ('md' in p ? p.md : 'text' in p ? p.text : p.code)).join('\n');
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('multi-criterion editor help', () => {
  it('completes a `## ` heading under # Rubric with the criteria that have no rubric yet, with their weight', () => {
    const { text, offset } = at(CRITERIA.replace('## clarity\n', '## cl‸\n'));
    const entries = completionsAt(parseTemplate(text), offset, NO_SAMPLE);
    assert.deepEqual(entries.map((e) => e.label), ['clarity']);
    assert.equal(entries[0]?.detail, 'criterion rubric · weight 30%');
    assert.equal(text.slice(entries[0]!.start, offset), 'cl');
  });

  it('offers nothing for a `## ` heading outside # Rubric', () => {
    const { text, offset } = at(CRITERIA.replace('# Evaluation steps\n', '# Evaluation steps\n## ‸\n'));
    assert.deepEqual(completionsAt(parseTemplate(text), offset, NO_SAMPLE).map((e) => e.label), []);
  });

  it("completes a criterion's keys inside `criteria:`", () => {
    const { text, offset } = at(CRITERIA.replace('    weight: 0.3\n', '    weight: 0.3\n    ‸\n'));
    assert.deepEqual(completionsAt(parseTemplate(text), offset, NO_SAMPLE).map((e) => e.label), ['name', 'description', 'weight']);
  });

  it('offers `criteria` among the top-level keys of a pointwise template', () => {
    const { text, offset } = at(CRITERIA.replace('criteria:\n', '‸\ncriteria:\n').replace(/criteria:\n[\s\S]*?---/, '---'));
    assert.ok(completionsAt(parseTemplate(text), offset, NO_SAMPLE).some((e) => e.label === 'criteria'));
  });

  it('hovers a rubric heading with the criterion, its weight and share, and its description', () => {
    const t = parseTemplate(CRITERIA);
    const line = lineOf(CRITERIA, '## Accuracy');
    const h = hoverAt(t, t.index.offset(line, 5), NO_SAMPLE)!;
    assert.match(partText(h.parts), /Criterion\*\* `accuracy` · weight 0\.7 \(70% of the overall score\)/);
    assert.match(partText(h.parts), /Claims are true\./);
  });

  it('hovers `weight` inside a criterion with what it means', () => {
    const t = parseTemplate(CRITERIA);
    const line = lineOf(CRITERIA, 'weight: 0.7');
    const h = hoverAt(t, t.index.offset(line, 6), NO_SAMPLE)!;
    assert.match(partText(h.parts), /normalised/);
  });

  it('outlines the rubric by criterion, each with its score lines, and folds each criterion subsection', () => {
    const t = parseTemplate(CRITERIA);
    const rubric = outline(t).find((s) => s.name === 'Rubric')!;
    assert.deepEqual(rubric.children.map((c) => [c.name, c.detail, c.children.map((p) => p.name)]), [
      ['Accuracy', 'weight 70%', ['3', '2', '1']],
      ['clarity', 'weight 30%', ['3', '2', '1']],
    ]);
    const start = lineOf(CRITERIA, '## clarity');
    const fold = foldingRanges(t).find((f) => f.start === start);
    assert.equal(fold?.end, lineOf(CRITERIA, '- 1: Cannot be followed.'));
  });
});
