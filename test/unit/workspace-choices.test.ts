// One rule for what the template and dataset pickers offer: snapshots, results and reports never.
import * as assert from 'node:assert/strict';
import { isDatasetChoice, isTemplateChoice } from '../../src/core/workspace/choices';

describe('files a picker offers', () => {
  it('lists templates but never the snapshots in .judge-studio/templates/', () => {
    assert.deepEqual(
      ['a.judge', 'judges/b.judge', '.judge-studio/templates/a-1f2e.judge', 'x/.judge-studio/templates/c.judge', 'node_modules/p/d.judge', 'notes.md'].filter(isTemplateChoice),
      ['a.judge', 'judges/b.judge'],
    );
  });

  it('lists datasets but not results files, reports or anything under .judge-studio/', () => {
    const files = [
      'data/rows.jsonl', 'data/rows.csv', 'data/rows.json', 'labels.ndjson',
      'out/run.results.jsonl', 'out/run-results.jsonl', 'out/run_results.jsonl',
      'short_answers.align/align-report.json', 'probe/probe-report.json', 'out/run.results.jsonl.run.json',
      '.judge-studio/results/x.jsonl', '.judge-studio/cache/y.json', 'package.json', 'tsconfig.build.json', 'a.judge',
    ];
    assert.deepEqual(files.filter(isDatasetChoice), ['data/rows.jsonl', 'data/rows.csv', 'data/rows.json', 'labels.ndjson']);
  });

  it('reads Windows separators the same way', () => {
    assert.equal(isTemplateChoice('.judge-studio\\templates\\a.judge'), false);
    assert.equal(isDatasetChoice('data\\rows.jsonl'), true);
  });
});
