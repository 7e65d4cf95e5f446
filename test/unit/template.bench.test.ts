// The benchmark's generated template is what the issue asks for, so its figures mean something.
import * as assert from 'node:assert/strict';
import { generateTemplate } from '../../bench/template';
import { parseTemplate, renderTemplate, validateTemplate } from '../../src/core/template';

describe('the template benchmark input', () => {
  const g = generateTemplate();

  it('has 5,000 lines, 2,000 placeholders and many sections', () => {
    const t = parseTemplate(g.text);
    assert.equal(g.text.split('\n').length - 1, 5000);
    assert.equal(t.placeholders.length, 2000);
    assert.ok(t.sections.length > 100, `${t.sections.length} sections`);
  });

  it('validates clean and renders with its row', () => {
    assert.deepEqual(validateTemplate(g.text), []);
    assert.equal(renderTemplate(parseTemplate(g.text), g.row).ok, true);
  });
});
