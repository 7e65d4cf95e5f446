// The walkthrough ticks for work done before it was opened, or by a CodeLens, a notification's
// button or the CLI: which steps the workspace's facts say are done.
import * as assert from 'node:assert/strict';
import { historyKinds, stepOfView, stepsDone, type WorkFacts } from '../../src/extension/walkthrough/model';

const none: WorkFacts = { templates: false, previewSeen: false, endpoint: false, history: new Set(), calibrationSeen: false };

describe('walkthrough: steps done by earlier work', () => {
  it('ticks nothing in an empty workspace', () => {
    assert.deepEqual(stepsDone(none), []);
  });

  it('ticks each step from its own fact only', () => {
    assert.deepEqual(stepsDone({ ...none, templates: true }), ['write']);
    assert.deepEqual(stepsDone({ ...none, previewSeen: true }), ['preview']);
    assert.deepEqual(stepsDone({ ...none, endpoint: true }), ['endpoint']);
    assert.deepEqual(stepsDone({ ...none, history: new Set(['run']) }), ['selection']);
    assert.deepEqual(stepsDone({ ...none, history: new Set(['batch']) }), ['dataset']);
    assert.deepEqual(stepsDone({ ...none, calibrationSeen: true }), ['calibrate']);
  });

  it('reads the kinds of a run history, skipping lines that are not entries', () => {
    const text = ['{"type":"run","metric":"m"}', 'not json', '', '[1,2]', '{"type":"batch"}', '{"type":7}', '{"type":"batch"'].join('\n');
    assert.deepEqual([...historyKinds(text)].sort(), ['batch', 'run']);
  });

  it('knows the views that take a step, under the prefix the tab API may add', () => {
    assert.equal(stepOfView('judgeStudio.preview'), 'preview');
    assert.equal(stepOfView('mainThreadWebview-judgeStudio.preview'), 'preview');
    assert.equal(stepOfView('mainThreadWebview-judgeStudio.calibration'), 'calibrate');
    assert.equal(stepOfView('judgeStudio.review'), 'calibrate');
    assert.equal(stepOfView('judgeStudio.run'), 'selection');
    assert.equal(stepOfView('judgeStudio.previewer'), undefined);
    assert.equal(stepOfView('other.judgeStudio.compare'), undefined);
  });
});
