// Labels outside the template's scale are refused with the file, row and line (exit 2), instead of
// becoming classes of the confusion matrix; without a template, calibrate says when labels look wrong.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { calibrateCommand } from '../../src/cli/commands/calibrate';
import { EXIT_OK, UsageError } from '../../src/cli/io';
import { templateHash } from '../../src/core/results/keys';
import { PAIRWISE, POINTWISE } from '../support/judgeFixtures';

describe('calibrate against the template scale', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'js-scale-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, lines: Record<string, unknown>[]) => fs.writeFileSync(path.join(dir, name), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const run = async (...args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await calibrateCommand(args, { stdout: (x) => void (stdout += x), stderr: (x) => void (stderr += x), cwd: dir, env: {} });
    return { code, stdout, stderr };
  };
  const refused = (args: string[], pattern: RegExp) =>
    assert.rejects(run(...args), (e: unknown) => {
      assert.ok(e instanceof UsageError, String(e));
      assert.match(e.message, pattern);
      return true;
    });
  const rated = (row: number, human: unknown, score: unknown = 3) => ({ _row: row, 'quality/human_rating': human, 'quality/score': score });

  it('refuses a rating above the scale and one that is not a whole number, naming the file, row and line', async () => {
    fs.writeFileSync(path.join(dir, 'quality.judge'), POINTWISE);
    write('r.jsonl', [rated(1, 3), rated(2, 4), rated(3, 99)]);
    await refused(['r.jsonl', '--metric', 'quality', '--template', 'quality.judge'], /^r\.jsonl: row 3 \(line 3\): "quality\/human_rating" is 99, not a whole number on the 1–5 scale of quality\.judge; correct the label/);
    write('r.jsonl', [rated(1, 3), rated(2, 3.5)]);
    await refused(['r.jsonl', '--metric', 'quality', '--template', 'quality.judge'], /row 2 \(line 2\): "quality\/human_rating" is 3\.5, not a whole number on the 1–5 scale/);
    write('r.jsonl', [rated(1, 3, 0)]);
    await refused(['r.jsonl', '--metric', 'quality', '--template', 'quality.judge'], /"quality\/score" is 0, not a whole number on the 1–5 scale/);
  });

  it('finds the template named after the metric when it is the version that judged the file', async () => {
    fs.writeFileSync(path.join(dir, 'quality.judge'), POINTWISE);
    const hash = templateHash(POINTWISE);
    write('r.jsonl', [{ ...rated(1, 3), 'quality/template_hash': hash }, { ...rated(2, 7), 'quality/template_hash': hash }]);
    await refused(['r.jsonl', '--metric', 'quality'], /row 2 \(line 2\): "quality\/human_rating" is 7, not a whole number on the 1–5 scale of quality\.judge/);
    // Another version of the template: its scale may not be the one the file was judged on.
    write('r.jsonl', [{ ...rated(1, 3), 'quality/template_hash': 'aaaaaaaaaaaa' }, { ...rated(2, 7), 'quality/template_hash': 'aaaaaaaaaaaa' }]);
    const other = await run('r.jsonl', '--metric', 'quality');
    assert.equal(other.code, EXIT_OK);
    assert.match(other.stderr, /quality\.judge is not the template version that judged r\.jsonl/);
  });

  it('refuses a pairwise choice that is not A, B or TIE, and a template of the other kind', async () => {
    fs.writeFileSync(path.join(dir, 'pref.judge'), PAIRWISE);
    write('p.jsonl', [
      { _row: 1, 'pref/human_pairwise_choice': 'baseline', 'pref/pairwise_choice': 'A' },
      { _row: 2, 'pref/human_pairwise_choice': 'C', 'pref/pairwise_choice': 'B' },
    ]);
    await refused(['p.jsonl', '--metric', 'pref', '--template', 'pref.judge'], /row 2 \(line 2\): "pref\/human_pairwise_choice" is "C", not a choice of pref\.judge \(A, B, TIE/);
    write('r.jsonl', [rated(1, 3)]);
    await refused(['r.jsonl', '--metric', 'quality', '--template', 'pref.judge'], /pref\.judge is a pairwise template, but the file has pointwise label columns/);
  });

  it('says, without a template, when labels look out of place, and still reports', async () => {
    write('r.jsonl', [rated(1, 3), rated(2, 4, 4), rated(3, 99, 5), rated(4, 2.5, 2)]);
    const { code, stderr } = await run('r.jsonl', '--metric', 'quality');
    assert.equal(code, EXIT_OK);
    assert.match(stderr, /r\.jsonl: the labels 2\.5, 99 look out of place .* pass --template T/);
  });

  it('keeps a clean file quiet', async () => {
    fs.writeFileSync(path.join(dir, 'quality.judge'), POINTWISE);
    write('r.jsonl', [rated(1, 3), rated(2, 5, 5), rated(3, 1, 1)]);
    const { code, stderr } = await run('r.jsonl', '--metric', 'quality', '--template', 'quality.judge');
    assert.equal(code, EXIT_OK);
    assert.equal(stderr, '');
  });
});
