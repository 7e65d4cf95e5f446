// The self-judging guard: model families, a warning once per judge, and the rows named.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCommand } from '../../src/cli/commands/run';
import { EXIT_OK } from '../../src/cli/io';
import { modelFamily } from '../../src/core/judge/engine/selfJudging';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { captureIO, POINTWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';

describe('self-judging guard', () => {
  it('groups model names by family', () => {
    const cases: [string, string][] = [
      ['gpt-4o-mini', 'openai'],
      ['openai/gpt-4.1', 'openai'],
      ['o3-mini', 'openai'],
      ['claude-3-5-sonnet-20241022', 'anthropic'],
      ['llama3.1:8b', 'meta-llama'],
      ['meta-llama/Llama-3.3-70B-Instruct', 'meta-llama'],
      ['qwen2.5:7b', 'qwen'],
      ['gemma2:9b', 'google'],
      ['mixtral-8x7b', 'mistral'],
      ['phi3:mini', 'microsoft-phi'],
      ['my-own-model', 'my'],
    ];
    for (const [name, family] of cases) assert.equal(modelFamily(name), family, name);
  });

  it('warns once per judge of the generator family and names it on those rows only', async function () {
    this.timeout(20_000);
    const fake = await FakeOpenAI.start();
    try {
      const dir = tempDir();
      const template = path.join(dir, 't.judge');
      fs.writeFileSync(template, POINTWISE.replace('inputs: [prompt, response]', 'inputs: [prompt, response]\ngenerator_field: generator'));
      const data = writeJsonl(path.join(dir, 'd.jsonl'), [
        { prompt: 'p1', response: 'r', generator: 'llama3.1:8b' },
        { prompt: 'p2', response: 'r', generator: 'gpt-4o' },
        { prompt: 'p3', response: 'r', generator: 'llama3:70b' },
      ]);
      const out = path.join(dir, 'r.jsonl');
      const io = captureIO(dir, { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') });
      const code = await runCommand([template, '--data', data, '--out', out, '--judge', `llama3.2@${fake.baseURL}`, '--judge', `qwen2.5@${fake.baseURL}`, '--concurrency', '1'], io);
      assert.equal(code, EXIT_OK, io.err);
      assert.equal(io.err.match(/judge llama3\.2 is of the meta-llama family/g)?.length, 1, io.err);
      assert.doesNotMatch(io.err, /judge qwen2\.5 is of/);
      const rows = new Map(readJsonl(out).map((l) => [l._row, l['quality/self_judging']]));
      assert.deepEqual([rows.get(1), rows.get(2), rows.get(3)], [['llama3.2'], undefined, ['llama3.2']]);
    } finally {
      await fake.close();
    }
  });
});
