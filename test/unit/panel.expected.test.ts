// `model.scoring: expected`: logprobs are asked for, the score token's alternatives weigh the
// scale's values, and an endpoint without logprobs is said once and gives null.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCommand } from '../../src/cli/commands/run';
import { EXIT_OK } from '../../src/cli/io';
import { expectedScore } from '../../src/core/judge/engine/expected';
import { FakeOpenAI, reply } from '../support/fakeOpenAI';
import { captureIO, POINTWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';

const EXPECTED = POINTWISE.replace('inputs: [prompt, response]', 'inputs: [prompt, response]\nmodel:\n  scoring: expected');
const tok = (token: string, top: [string, number][] = [[token, 1]]) => ({ token, logprob: 0, top: top.map(([t, p]) => ({ token: t, logprob: Math.log(p) })) });

describe('expected score from logprobs', () => {
  it('weighs the scale values at the score token, renormalising over the in-scale candidates', () => {
    const tokens = [tok('{"justification":"the score: 2 is low","score":'), tok('4', [['4', 0.6], ['3', 0.2], ['5', 0.1], ['x', 0.05], ['9', 0.05]]), tok('}')];
    assert.ok(Math.abs(expectedScore(tokens, { min: 1, max: 5 })! - (4 * 0.6 + 3 * 0.2 + 5 * 0.1) / 0.9) < 1e-12);
  });

  it('reads a score written inside a longer token when alternatives share its prefix', () => {
    const tokens = [tok('{"score"'), tok(': 2', [[': 2', 0.5], [': 4', 0.5], ['2', 0.3]]), tok('}')];
    assert.equal(expectedScore(tokens, { min: 1, max: 5 }), 3);
    assert.equal(expectedScore([tok('{"justification":"none"}')], { min: 1, max: 5 }), null);
  });

  describe('through judge-studio run', function () {
    this.timeout(20_000);
    let fakes: FakeOpenAI[];
    let dir: string;
    beforeEach(async () => {
      fakes = [await FakeOpenAI.start(), await FakeOpenAI.start()];
      dir = tempDir();
    });
    afterEach(async () => Promise.all(fakes.map((f) => f.close())));

    it('asks for logprobs, records score_expected per judge and for the panel, and null where the endpoint gives none, said once', async () => {
      fakes[0]!.rules = [() => reply({ justification: 'ok', score: 4 }, { logprobs: { score: { '4': 0.5, '5': 0.5 } } })];
      fakes[1]!.rules = [() => reply({ justification: 'ok', score: 4 }, { logprobs: null })];
      const template = path.join(dir, 't.judge');
      fs.writeFileSync(template, EXPECTED);
      const data = writeJsonl(path.join(dir, 'd.jsonl'), [{ prompt: 'p1', response: 'r' }, { prompt: 'p2', response: 'r' }]);
      const io = captureIO(dir, { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') });
      const out = path.join(dir, 'r.jsonl');
      const code = await runCommand([template, '--data', data, '--out', out, '--judge', `a@${fakes[0]!.baseURL}`, '--judge', `b@${fakes[1]!.baseURL}`], io);
      assert.equal(code, EXIT_OK, io.err);
      assert.equal(fakes[0]!.chats[0]!.body?.logprobs, true);
      assert.equal(fakes[0]!.chats[0]!.body?.top_logprobs, 20);
      const line = readJsonl(out)[0]!;
      assert.equal(line['quality/score'], 4, 'the integer score is unchanged');
      assert.deepEqual((line['quality/judges'] as { score_expected: unknown }[]).map((j) => j.score_expected), [4.5, null]);
      assert.equal(line['quality/score_expected'], null, 'one judge gave no logprobs');
      assert.equal(io.err.match(/gives no token logprobs/g)?.length, 1, io.err);

      const single = captureIO(dir, { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') });
      const out2 = path.join(dir, 'r2.jsonl');
      assert.equal(await runCommand([template, '--data', data, '--out', out2, '--base-url', fakes[0]!.baseURL, '--model', 'a'], single), EXIT_OK, single.err);
      assert.equal(readJsonl(out2)[0]!['quality/score_expected'], 4.5, 'from the cache too: the entry keeps the expected score');
      assert.equal(fakes[0]!.chats.length, 2, 'both rows answered from the cache the panel run filled');
    });
  });
});
