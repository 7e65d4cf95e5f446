import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { probeCommand } from '../../src/cli/commands/probe';
import { SELF_ASSESSMENT } from '../../src/core/probe';
import { buildProbeView, MAX_TEXT, probeDirName } from '../../src/extension/probe/model';
import { probeViewSchema } from '../../src/protocol/probe';
import { FakeOpenAI, reply } from '../support/fakeOpenAI';
import { captureIO, POINTWISE, tempDir, writeJsonl } from '../support/judgeFixtures';

const report = (moved: unknown[] = []) => ({
  metric: 'quality', kind: 'pointwise', target: 'response', threshold: 0.1, rows: 1, failed: 0,
  probes: [{ probe: 'verbosity', description: 'd', n: 1, changed: moved.length, changed_share: moved.length, mean_shift: 0, mean_shift_ci: [0, 0], susceptible: moved.length > 0, moved }],
  susceptible: [], position_inconsistent: null, method: 'm',
});

describe('probe view model', () => {
  it('draws a real probe run: bars, the susceptible probe, and both copies of each moved row', async () => {
    const dir = tempDir();
    const fake = await FakeOpenAI.start({ rules: [(r) => reply({ justification: `saw ${r.prompt.includes(SELF_ASSESSMENT) ? 'a claim' : 'nothing'}`, score: r.prompt.includes(SELF_ASSESSMENT) ? 5 : 3 })] });
    try {
      const data = writeJsonl(path.join(dir, 'd.jsonl'), [1, 2, 3].map((i) => ({ prompt: `q${i}`, response: `answer ${i} <b>x</b>` })));
      const t = path.join(dir, 't.judge');
      fs.writeFileSync(t, POINTWISE);
      const io = captureIO(dir, { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') });
      await probeCommand([t, '--data', data, '--base-url', fake.baseURL, '--model', 'm', '--out', 'out'], io);
    } finally {
      await fake.close();
    }
    const out = path.join(dir, 'out');
    const built = buildProbeView(JSON.parse(fs.readFileSync(path.join(out, 'probe-report.json'), 'utf8')), fs.readFileSync(path.join(out, 'probe-results.jsonl'), 'utf8'), { dataset: 'd.jsonl', dir: 'out' });
    assert.ok(built.ok, built.ok ? '' : built.error);
    const v = built.view;
    assert.ok(probeViewSchema.safeParse(v).success, 'the view fits the protocol the page checks');
    assert.deepEqual(v.probes.map((p) => [p.probe, p.share, p.susceptible]), [['verbosity', 0, false], ['authority', 0, false], ['self-assessment', 1, true], ['injection', 0, false]]);
    assert.deepEqual(v.susceptible, ['self-assessment']);
    const self = v.probes[2]!;
    assert.deepEqual(self.ci, [2, 2]);
    assert.deepEqual(self.moved.map((m) => m.row), [1, 2, 3]);
    const [first] = self.moved;
    assert.deepEqual(first!.original, { verdict: '3', text: 'answer 1 <b>x</b>', justification: 'saw nothing', truncated: false, resultRow: 1 });
    assert.deepEqual(first!.perturbed, { verdict: '5', text: `answer 1 <b>x</b>\n\n${SELF_ASSESSMENT}`, justification: 'saw a claim', truncated: false, resultRow: 4 });
  });

  it('refuses a file that is not a probe report, naming the field', () => {
    const built = buildProbeView({ ...report(), probes: [{ probe: 'x' }] }, '', { dataset: 'd', dir: '.judge-studio/probes/q' });
    assert.equal(built.ok, false);
    assert.match(built.ok ? '' : built.error, /^\.judge-studio\/probes\/q\/probe-report\.json is not a probe report \(probes\.0\.description: /);
  });

  it('cuts long texts and says so; a copy missing from the results has no run-view row', () => {
    const long = 'y'.repeat(MAX_TEXT + 10);
    const results = [
      { _row: 1, _source_row: 1, _probe: 'original', response: long, 'quality/score': 2 },
      { _row: 9, _source_row: 1, _probe: 'original', response: 'retried', 'quality/score': 2, 'quality/justification': 'last line stands' },
    ].map((l) => JSON.stringify(l)).join('\n');
    const built = buildProbeView(report([{ row: 1, original: 2, perturbed: 4, shift: 2 }]), `${JSON.stringify({ _row: 2, _source_row: 1, _probe: 'verbosity', response: long, 'quality/score': 4 })}\n${results}`, { dataset: 'd', dir: 'o' });
    assert.ok(built.ok);
    const [m] = built.view.probes[0]!.moved;
    assert.equal(m!.perturbed.text.length, MAX_TEXT);
    assert.equal(m!.perturbed.truncated, true);
    assert.equal(m!.original.text, 'retried');
    assert.equal(m!.original.resultRow, 9);
    const missing = buildProbeView(report([{ row: 1, original: 2, perturbed: 4, shift: 2 }]), '', { dataset: 'd', dir: 'o' });
    assert.ok(missing.ok);
    assert.deepEqual(missing.view.probes[0]!.moved[0]!.perturbed, { verdict: '4', text: '', justification: '', truncated: false, resultRow: null });
  });

  it('names the output folder after the metric and the local time', () => {
    assert.equal(probeDirName('quality', new Date(2024, 1, 29, 7, 5, 9)), 'quality-20240229-070509');
  });
});
