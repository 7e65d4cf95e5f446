// Prompt-caching friendliness: cached prompt tokens read from the endpoint's usage, and
// --price IN,OUT,CACHED pricing them at the cached rate (the lint is in template.lints.test.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCommand } from '../../src/cli/commands/run';
import { EXIT_OK } from '../../src/cli/io';
import { costUsd } from '../../src/core/judge/reports/summary';
import { FakeOpenAI, reply } from '../support/fakeOpenAI';
import { captureIO, POINTWISE, tempDir, writeJsonl } from '../support/judgeFixtures';

describe('prompt caching', () => {
  it('prices cached prompt tokens at the cached rate, and all of them at the input rate without one', () => {
    // 1M prompt tokens of which 400k cached, 100k completion: 0.6·2 + 0.4·0.5 + 0.1·8
    assert.equal(costUsd({ input: 2, output: 8, cached: 0.5 }, 1_000_000, 100_000, 400_000), 2.2);
    assert.equal(costUsd({ input: 2, output: 8 }, 1_000_000, 100_000, 400_000), 2.8);
  });

  it('reports cached prompt tokens from usage.prompt_tokens_details and counts them in the cost', async () => {
    const usage = { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100, prompt_tokens_details: { cached_tokens: 800 } };
    const fake = await FakeOpenAI.start({ rules: [() => reply({ justification: 'j', score: 3 }, { usage: usage as never })] });
    const dir = tempDir();
    try {
      const tpl = path.join(dir, 't.judge');
      fs.writeFileSync(tpl, POINTWISE);
      const data = writeJsonl(path.join(dir, 'd.jsonl'), [{ prompt: 'a', response: 'b' }, { prompt: 'c', response: 'd' }]);
      const io = captureIO(dir, { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') });
      const code = await runCommand([tpl, '--data', data, '--base-url', fake.baseURL, '--model', 'm', '--no-cache', '--price', '2,8,1', '--json', '--out', path.join(dir, 'r.jsonl')], io);
      assert.equal(code, EXIT_OK, io.err);
      const summary = JSON.parse(io.out) as { usage: { cached_prompt_tokens: number }; cost_usd: number };
      assert.equal(summary.usage.cached_prompt_tokens, 1600);
      // 2 × (200·2 + 800·1 + 100·8) / 1e6
      assert.equal(summary.cost_usd, 0.004);
      assert.match(io.err, /1600 prompt tokens from the provider's prompt cache/);
    } finally {
      await fake.close();
    }
  });
});
