// Which files the editor offers the Results Viewer for: the product's own names, and any JSONL whose
// first record has the bookkeeping every results line carries.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isResultsFile, isResultsLine, isResultsName, RESULTS_DIR, RESULTS_NAME } from '../../src/extension/results/model/detect';

const root = path.resolve(__dirname, '../../..');

describe('results file detection', () => {
  it('knows the names the product writes', () => {
    for (const name of ['/w/helpfulness.results.jsonl', '/w/.judge-studio/probes/h-1/probe-results.jsonl', '/w/.judge-studio/results/h-data-20240101-090000.jsonl', '/w/.judge-studio/batches/h-20240101-090000.results.jsonl', 'C:\\w\\.judge-studio\\results\\h.jsonl']) {
      assert.ok(isResultsName(name), name);
    }
    for (const name of ['/w/helpfulness.jsonl', '/w/results.json', '/w/.judge-studio/history/h.jsonl', '/w/myresults.jsonl']) assert.ok(!isResultsName(name), name);
  });

  it('knows a results file by its first record: _row with _key, or with a verdict column', () => {
    assert.ok(isResultsLine(JSON.stringify({ prompt: 'p', _row: 3, _key: '0123456789abcdef' })));
    assert.ok(isResultsLine(JSON.stringify({ prompt: 'p', _row: 1, 'm/score': 4 })));
    assert.ok(isResultsLine(JSON.stringify({ _row: 1, 'm/error_kind': 'timeout' })));
    assert.ok(!isResultsLine(JSON.stringify({ prompt: 'p', 'm/human_rating': 4 })), 'a dataset with labels is not a results file');
    assert.ok(!isResultsLine(JSON.stringify({ _row: 0, _key: '0123456789abcdef' })), '_row counts from 1');
    assert.ok(!isResultsLine(JSON.stringify({ _row: 1, _key: 'not-a-key' })));
    assert.ok(!isResultsLine(JSON.stringify({ text: 'says "_row": 1 and "_key": "0123456789abcdef"' })), 'words in a string are not columns');
    assert.ok(!isResultsLine('{"_row": 1, broken'));
  });

  it('reads past blank lines, and only JSONL files', () => {
    const line = JSON.stringify({ _row: 1, _key: '0123456789abcdef' });
    assert.ok(isResultsFile('/w/out.jsonl', ['', '  ', line]));
    assert.ok(!isResultsFile('/w/out.csv', [line]));
    assert.ok(!isResultsFile('/w/out.jsonl', []));
  });

  it("drives package.json's editor-title button with the same patterns", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes: { menus: Record<string, { command: string; when?: string }[]> } };
    const when = pkg.contributes.menus['editor/title']?.find((m) => m.command === 'judgeStudio.openResultsViewer')?.when ?? '';
    assert.ok(when.includes(`resourceFilename =~ /${RESULTS_NAME.source}/i`), when);
    assert.ok(when.includes(`resourcePath =~ /${RESULTS_DIR.source}/i`), when);
    assert.ok(when.includes('resourcePath in judgeStudio.resultsFiles'), when);
  });
});
