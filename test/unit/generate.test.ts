// Generating a rubric or evaluation steps through a real HTTP endpoint (the local fake server):
// a valid reply, an invalid one that gets one repair, one that stays invalid, an unreachable
// endpoint, the cache, where the text lands in the template, and the CLI.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateSection, withProvenance, type GenerateDeps } from '../../src/core/generate';
import { MemoryCache } from '../../src/core/judge/engine/cache';
import { OpenAICompatibleClient } from '../../src/core/judge/transport/openaiClient';
import { parseTemplate, validateTemplate } from '../../src/core/template';
import { main } from '../../src/cli/main';
import { FakeOpenAI, reply } from '../support/fakeOpenAI';
import { generateJudge, rubricReply, STEPS_REPLY } from '../support/generateFixtures';
import { captureIO, tempDir } from '../support/judgeFixtures';

const TEMPLATE = `---
name: accuracy
kind: pointwise
scale: [1, 4]
---
# Criteria

Every claim in the response is correct and answers the prompt.

# Rubric

- 4:
- 3:
- 2:
- 1:

# Evaluation steps

1. Read it.

# Task

{{prompt}}
<response>{{response}}</response>
`;

const NOW = () => new Date('2025-03-04T10:00:00Z');

describe('generating a rubric or evaluation steps', () => {
  let fake: FakeOpenAI;
  let deps: GenerateDeps;

  beforeEach(async () => {
    fake = await FakeOpenAI.start({ rules: [generateJudge()] });
    deps = { client: new OpenAICompatibleClient({ baseURL: fake.baseURL, timeoutMs: 10_000 }), model: 'gen-model', structured: 'json_schema', cacheScope: fake.baseURL, now: NOW };
  });
  afterEach(() => fake.close());

  it('fills the rubric with one described level per score and records the model and date', async () => {
    const out = await generateSection(parseTemplate(TEMPLATE), 'rubric', { strictness: 'strict', domain: 'geography' }, deps);
    assert.ok(out.ok, JSON.stringify(out));
    assert.match(out.text, /^- 4 \(Level 4\): The response meets three of the three requirements in the prompt\. Level 3 meets two instead\.$/m);
    assert.match(out.text, /^- 1 \(Level 1\): /m);
    assert.match(out.text, /generated:\n {2}rubric: \{model: "gen-model", date: "2025-03-04", domain: "geography", strictness: "strict"\}\n---/);
    // A guideline starting with a number must not read as a score line.
    assert.match(out.text, /^- Note: 2 answers in one reply/m);
    assert.deepEqual(validateTemplate(out.text), []);
    assert.equal(out.repaired, false);
    const [req] = fake.chats;
    assert.equal(req?.body?.response_format?.type, 'json_schema');
    assert.equal(req?.body?.response_format?.json_schema?.name, 'judge_studio_rubric');
    assert.match(req?.prompt ?? '', /Domain of the responses: geography[\s\S]*Every claim in the response is correct[\s\S]*integer scale 1 to 4[\s\S]*Be strict/);
  });

  it('sends one repair request quoting the missing score, then uses the repaired rubric', async () => {
    let calls = 0;
    fake.rules = [() => (calls++ === 0 ? reply(rubricReply(1, 4, 2)) : reply(`Sorry! Here it is:\n\`\`\`json\n${JSON.stringify(rubricReply(1, 4))}\n\`\`\``))];
    const out = await generateSection(parseTemplate(TEMPLATE), 'rubric', { strictness: 'balanced' }, deps);
    assert.ok(out.ok, JSON.stringify(out));
    assert.equal(out.repaired, true);
    assert.equal(fake.chats.length, 2);
    const repair = fake.chats[1]?.body?.messages?.at(-1)?.content ?? '';
    assert.match(repair, /no level for score 2/);
    assert.equal(fake.chats[1]?.body?.messages?.at(-2)?.role, 'assistant');
  });

  it('gives up after one repair with the errors of both replies, and writes nothing', async () => {
    fake.rules = [() => reply({ levels: [], edge_cases: [], guidelines: [] })];
    const out = await generateSection(parseTemplate(TEMPLATE), 'rubric', { strictness: 'balanced' }, deps);
    assert.ok(!out.ok);
    assert.equal(out.code, 'invalid-reply');
    assert.match(out.message, /nor after one repair request/);
    assert.equal(fake.chats.length, 2);
  });

  it('reports an unreachable endpoint as a failed request, not as an exception', async () => {
    await fake.close();
    const out = await generateSection(parseTemplate(TEMPLATE), 'rubric', { strictness: 'balanced' }, deps);
    assert.ok(!out.ok);
    assert.equal(out.code, 'request-failed');
    assert.equal(out.kind, 'network');
    fake = await FakeOpenAI.start();
  });

  it('answers the same request from the cache without calling the endpoint', async () => {
    const cache = new MemoryCache();
    const first = await generateSection(parseTemplate(TEMPLATE), 'rubric', { strictness: 'balanced' }, { ...deps, cache });
    const second = await generateSection(parseTemplate(TEMPLATE), 'rubric', { strictness: 'balanced' }, { ...deps, cache });
    assert.ok(first.ok && second.ok);
    assert.equal(second.cached, true);
    assert.equal(second.text, first.text);
    assert.equal(fake.chats.length, 1);
    await generateSection(parseTemplate(TEMPLATE), 'rubric', { strictness: 'lenient' }, { ...deps, cache });
    assert.equal(fake.chats.length, 2, 'another strictness is another request');
  });

  it('writes 3–6 numbered steps, and repairs a list that is too short', async () => {
    const out = await generateSection(parseTemplate(TEMPLATE), 'steps', { strictness: 'balanced' }, deps);
    assert.ok(out.ok);
    assert.match(out.text, /# Evaluation steps\n\n1\. Read the prompt[^\n]*\n2\. [^\n]*\n3\. [^\n]*\n4\. Write your justification first, then the score\.\n\n# Task/);
    assert.match(out.text, /generated:\n {2}steps: \{model: "gen-model"/);

    let calls = 0;
    fake.rules = [() => (calls++ === 0 ? reply({ steps: ['Read.', 'Score.'] }) : reply(STEPS_REPLY))];
    const repaired = await generateSection(parseTemplate(TEMPLATE), 'steps', { strictness: 'strict' }, deps);
    assert.ok(repaired.ok && repaired.repaired);
    assert.match(fake.chats.at(-1)?.body?.messages?.at(-1)?.content ?? '', /at least 3 steps/);
  });

  it('adds a missing Rubric section after the Criteria', async () => {
    const text = TEMPLATE.replace(/# Rubric\n\n(- \d:\n)+\n/, '');
    const out = await generateSection(parseTemplate(text), 'rubric', { strictness: 'balanced' }, deps);
    assert.ok(out.ok);
    assert.match(out.text, /answers the prompt\.\n\n# Rubric\n\n- 4 \(Level 4\)[\s\S]*\n\n# Evaluation steps\n/);
  });

  it('refuses a rubric for a pairwise template without a scale, and a template without criteria', async () => {
    const pairwise = TEMPLATE.replace('kind: pointwise\nscale: [1, 4]', 'kind: pairwise');
    const noScale = await generateSection(parseTemplate(pairwise), 'rubric', { strictness: 'balanced' }, deps);
    assert.ok(!noScale.ok && noScale.code === 'no-scale');
    const noCriteria = await generateSection(parseTemplate(TEMPLATE.replace('Every claim in the response is correct and answers the prompt.', '{{!-- todo --}}')), 'steps', { strictness: 'balanced' }, deps);
    assert.ok(!noCriteria.ok && noCriteria.code === 'no-criteria');
    assert.equal(fake.chats.length, 0);
  });

  it('keeps earlier provenance and the other front matter lines when recording a new one', () => {
    const once = withProvenance(TEMPLATE, 'steps', { model: 'a', date: '2025-01-01' });
    const twice = withProvenance(once, 'rubric', { model: 'b', date: '2025-01-02' });
    assert.match(twice, /^---\nname: accuracy\nkind: pointwise\nscale: \[1, 4\]\ngenerated:\n {2}steps: \{model: "?a"?, date: "?2025-01-01"?\}\n {2}rubric: \{model: "?b"?, date: "?2025-01-02"?\}\n---\n/);
    assert.equal(parseTemplate(twice).config?.name, 'accuracy', 'the front matter still validates');
  });
});

describe('judge-studio generate', () => {
  let fake: FakeOpenAI;
  let dir: string;

  beforeEach(async () => {
    fake = await FakeOpenAI.start({ rules: [generateJudge()] });
    dir = tempDir();
    fs.writeFileSync(path.join(dir, 't.judge'), TEMPLATE.replace('- 4:\n- 3:\n- 2:\n- 1:', '- 4: All claims right.\n- 3: One claim wrong.\n- 2: Two claims wrong.\n- 1: Off the prompt.'));
  });
  afterEach(() => fake.close());

  async function cli(args: string[]) {
    const io = captureIO(dir, { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') });
    return { code: await main(args, io), io };
  }

  it('prints the new template and leaves the file alone without --write', async () => {
    const { code, io } = await cli(['generate', 'rubric', 't.judge', '--base-url', fake.baseURL, '--model', 'm']);
    assert.equal(code, 0, io.err);
    assert.match(io.out, /^- 3 \(Level 3\): /m);
    assert.doesNotMatch(fs.readFileSync(path.join(dir, 't.judge'), 'utf8'), /Level 3/);
    assert.match(io.err, /pass --write/);
  });

  it('writes the file with --write, and the result validates', async () => {
    const { code, io } = await cli(['generate', 'steps', 't.judge', '--write', '--strictness', 'lenient', '--domain', 'maths', '--base-url', fake.baseURL, '--model', 'm']);
    assert.equal(code, 0, io.err);
    const written = fs.readFileSync(path.join(dir, 't.judge'), 'utf8');
    assert.match(written, /strictness: "lenient"/);
    assert.equal((await cli(['validate', 't.judge'])).code, 0);
  });

  it('exits 1 when the endpoint is unreachable and 2 for bad usage', async () => {
    const port = fake.port;
    await fake.close();
    const down = await cli(['generate', 'rubric', 't.judge', '--base-url', `http://127.0.0.1:${port}/v1`, '--model', 'm', '--no-cache']);
    assert.equal(down.code, 1);
    assert.match(down.io.err, /failed/);
    assert.equal((await cli(['generate', 'poem', 't.judge', '--model', 'm'])).code, 2);
    assert.equal((await cli(['generate', 'rubric', 't.judge', '--model', 'm', '--strictness', 'harsh'])).code, 2);
    assert.equal((await cli(['generate', 'rubric', 'missing.judge', '--model', 'm'])).code, 2);
    fake = await FakeOpenAI.start();
  });
});
