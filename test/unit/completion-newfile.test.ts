import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { emptyFileEntries, type SnippetDef } from '../../src/extension/language/model/completion';

const ROOT = path.resolve(__dirname, '../../..');
const snippets = JSON.parse(readFileSync(path.join(ROOT, 'snippets', 'judge.code-snippets'), 'utf8')) as Record<string, SnippetDef>;

describe('completion in a new .judge file', () => {
  it('offers the whole-template snippets first, pointwise preselected, replacing the file', () => {
    const entries = emptyFileEntries('\n', snippets);
    assert.deepEqual(entries.map((e) => e.label), ['template-pointwise', 'template-pairwise', 'template-hhh']);
    assert.deepEqual(entries.map((e) => e.sortText), [' 0', ' 1', ' 2'], 'sorted before every other suggestion');
    assert.match(entries[0]!.insertText, /^---\n/);
    assert.deepEqual([entries[0]!.start, entries[0]!.end], [0, 1]);
  });

  it('keeps offering them while the first word is typed', () => {
    assert.equal(emptyFileEntries('temp', snippets).length, 3);
  });

  it('offers nothing extra once the file has content', () => {
    assert.deepEqual(emptyFileEntries('---\nname: x\n', snippets), []);
  });
});
