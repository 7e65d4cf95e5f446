import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { OpenAICompatibleClient } from '../../src/core/judge/transport/openaiClient';
import type { OpenAIClientOptions } from '../../src/core/judge/transport/openaiClient';
import { JudgeError } from '../../src/core/judge/transport/types';
import type { JudgeRequest } from '../../src/core/judge/transport/types';
import { FakeOpenAI, reply, status } from '../support/fakeOpenAI';

const schema = { type: 'object', properties: { score: { type: 'integer', minimum: 1, maximum: 5 } }, required: ['score'] };

function request(overrides: Partial<JudgeRequest> = {}): JudgeRequest {
  return {
    model: 'judge-model',
    messages: [
      { role: 'system', content: 'You judge.' },
      { role: 'user', content: 'Rate this. Reply in JSON.' },
    ],
    temperature: 0,
    maxTokens: 100,
    responseFormat: { mode: 'json_schema', name: 'quality', schema },
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>): Promise<JudgeError> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof JudgeError, `expected a JudgeError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected the call to fail');
}

describe('OpenAI-compatible client', () => {
  let fake: FakeOpenAI;
  let logs: string[];
  const client = (o: Partial<OpenAIClientOptions> = {}) =>
    new OpenAICompatibleClient({ baseURL: fake.baseURL, timeoutMs: 2_000, log: (m) => logs.push(m), ...o });

  beforeEach(async () => {
    fake = await FakeOpenAI.start();
    logs = [];
  });
  afterEach(() => fake.close());

  it('sends the chat request with a strict json_schema response_format and reads text, model and usage', async () => {
    fake.rules = [() => reply({ score: 4 }, { model: 'judge-model-2024', usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 } })];
    const res = await client({ apiKey: 'sk-test' }).complete(request());
    assert.deepEqual(res, { text: '{"score":4}', model: 'judge-model-2024', usage: { promptTokens: 11, completionTokens: 3, totalTokens: 14 } });
    const sent = fake.chats[0]!;
    assert.equal(sent.path, '/v1/chat/completions');
    assert.equal(sent.body?.model, 'judge-model');
    assert.equal(sent.body?.temperature, 0);
    assert.equal(sent.body?.max_tokens, 100);
    assert.deepEqual(sent.body?.response_format, { type: 'json_schema', json_schema: { name: 'quality', schema, strict: true } });
    assert.equal(sent.headers.authorization, 'Bearer sk-test');
  });

  it('sends no Authorization header at all when there is no API key (local servers)', async () => {
    await client().complete(request());
    assert.equal(fake.chats[0]!.headers.authorization, undefined);
  });

  it('sends the organisation and extra headers', async () => {
    await client({ apiKey: 'k', organization: 'org-1', headers: { 'X-Team': 'eval' } }).complete(request());
    assert.equal(fake.chats[0]!.headers['openai-organization'], 'org-1');
    assert.equal(fake.chats[0]!.headers['x-team'], 'eval');
  });

  it('sends json_object or no response_format when asked', async () => {
    const c = client();
    await c.complete(request({ responseFormat: { mode: 'json_object', name: 'q', schema } }));
    await c.complete(request({ responseFormat: { mode: 'none', name: 'q', schema } }));
    assert.deepEqual(fake.chats[0]!.body?.response_format, { type: 'json_object' });
    assert.equal(fake.chats[1]!.body?.response_format, undefined);
  });

  it('talks to Azure OpenAI with the deployment path, the api-version query and the api-key header', async () => {
    const base = `http://127.0.0.1:${fake.port}/openai`;
    await client({ baseURL: base, apiKey: 'az-key', azureApiVersion: '2024-10-21' }).complete(request({ model: 'gpt4o-deploy' }));
    await client({ baseURL: `http://127.0.0.1:${fake.port}`, apiKey: 'az-key', azureApiVersion: '2024-10-21' }).complete(request({ model: 'd2' }));
    const [a, b] = fake.chats;
    assert.equal(a!.path, '/openai/deployments/gpt4o-deploy/chat/completions');
    assert.equal(a!.query['api-version'], '2024-10-21');
    assert.equal(a!.headers['api-key'], 'az-key');
    assert.equal(a!.headers.authorization, undefined);
    assert.equal(b!.path, '/openai/deployments/d2/chat/completions');
  });

  it('refuses Azure OpenAI without a key before sending anything', () => {
    assert.throws(() => client({ azureApiVersion: '2024-10-21' }), (e: unknown) => e instanceof JudgeError && e.kind === 'config');
  });

  it('falls back from json_schema to json_object once when the endpoint rejects it, and remembers', async () => {
    fake.rules = [
      (r) => (r.body?.response_format?.type === 'json_schema' ? status(400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.") : undefined),
    ];
    const c = client();
    assert.equal((await c.complete(request())).text.length > 0, true);
    await c.complete(request());
    assert.deepEqual(
      fake.chats.map((r) => r.body?.response_format?.type),
      ['json_schema', 'json_object', 'json_object'],
    );
    assert.equal(logs.length, 1);
    assert.match(logs[0]!, /rejected response_format json_schema .*using json_object/);
  });

  it('falls back to no response_format when json_object is rejected too (LM Studio)', async () => {
    fake.rules = [
      (r) =>
        r.body?.response_format?.type === 'json_object'
          ? { status: 400, json: { error: "'response_format.type' must be 'json_schema' or 'text'" } }
          : r.body?.response_format
            ? status(400, 'response_format json_schema: grammar compilation failed')
            : undefined,
    ];
    await client().complete(request());
    assert.deepEqual(fake.chats.map((r) => r.body?.response_format?.type), ['json_schema', 'json_object', undefined]);
  });

  it('reports a response_format complaint as a final error once nothing is left to fall back to', async () => {
    fake.rules = [() => status(400, 'response_format is required by this proxy')];
    const e = await failure(client().complete(request({ responseFormat: { mode: 'none', name: 'q', schema } })));
    assert.deepEqual([e.kind, e.retryable, fake.chats.length], ['http', false, 1]);
  });

  it('recognises a vLLM-shaped error body that mentions response_format', async () => {
    fake.rules = [
      (r) =>
        r.body?.response_format
          ? { status: 400, json: { object: 'error', message: 'guided_json/response_format is not supported by this backend', type: 'BadRequestError', code: 400 } }
          : undefined,
    ];
    await client().complete(request({ responseFormat: { mode: 'json_object', name: 'q', schema } }));
    assert.deepEqual(fake.chats.map((r) => r.body?.response_format?.type), ['json_object', undefined]);
  });

  it("keeps the server's words from an Ollama-style string error", async () => {
    fake.rules = [() => ({ status: 404, json: { error: 'model "llama9" not found, try pulling it first' } })];
    const e = await failure(client().complete(request({ responseFormat: undefined })));
    assert.equal(e.kind, 'http');
    assert.equal(e.retryable, false);
    assert.match(e.message, /model "llama9" not found/);
    assert.match(e.message, /check --base-url/);
  });

  it('accepts a reply without usage and ignores reasoning_content', async () => {
    fake.rules = [() => reply({ score: 2 }, { usage: null, message: { reasoning_content: 'thinking {"score": 5}' } })];
    const res = await client().complete(request());
    assert.equal(res.text, '{"score":2}');
    assert.equal(res.usage, undefined);
  });

  it('switches max_tokens to max_completion_tokens when the endpoint asks for it', async () => {
    fake.rules = [
      (r) =>
        r.body?.max_tokens !== undefined
          ? status(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")
          : undefined,
    ];
    await client().complete(request());
    assert.equal(fake.chats[1]!.body?.max_completion_tokens, 100);
    assert.equal(fake.chats[1]!.body?.max_tokens, undefined);
  });

  it("treats llama.cpp's 503 while the model loads as retryable and reports the model the server names", async () => {
    fake.rules = [() => ({ status: 503, json: { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } } })];
    const e = await failure(client().complete(request()));
    assert.deepEqual([e.kind, e.retryable], ['http', true]);
    assert.match(e.message, /Loading model/);
    fake.rules = [() => reply({ score: 3 }, { model: 'gpt-3.5-turbo' })];
    assert.equal((await client().complete(request({ model: 'llama-3-8b' }))).model, 'gpt-3.5-turbo');
  });

  it('classifies 429 as a rate limit carrying retry-after in ms', async () => {
    fake.rules = [() => status(429, 'slow down', { 'retry-after': '2' })];
    const e = await failure(client().complete(request()));
    assert.equal(e.kind, 'rate-limit');
    assert.equal(e.options.retryAfterMs, 2000);
    assert.equal(e.retryable, true);
    fake.rules = [() => status(429, 'slow down', { 'retry-after-ms': '250' })];
    assert.equal((await failure(client().complete(request()))).options.retryAfterMs, 250);
  });

  it('classifies 500 as a retryable server error and 401 as a final one with a key hint', async () => {
    fake.rules = [() => status(500, 'boom')];
    const e500 = await failure(client().complete(request()));
    assert.deepEqual([e500.kind, e500.retryable, e500.options.status], ['http', true, 500]);
    fake.rules = [() => status(401, 'bad key')];
    const e401 = await failure(client({ apiKey: 'x', apiKeyEnv: 'MY_KEY' }).complete(request()));
    assert.equal(e401.retryable, false);
    assert.match(e401.message, /\$MY_KEY/);
  });

  it('times out a reply slower than the deadline', async () => {
    fake.rules = [() => ({ ...reply({ score: 1 }), delayMs: 1_000 })];
    const started = Date.now();
    const e = await failure(client({ timeoutMs: 150 }).complete(request()));
    assert.equal(e.kind, 'timeout');
    assert.ok(Date.now() - started < 900, 'gave up at the deadline');
  });

  it('reports a connection dropped mid-response as a retryable network error', async () => {
    fake.rules = [() => ({ drop: true })];
    const e = await failure(client().complete(request()));
    assert.equal(e.kind, 'network');
    assert.equal(e.retryable, true);
  });

  it('reports a refused connection as a network error naming the URL', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const e = await failure(client({ baseURL: `http://127.0.0.1:${port}/v1` }).complete(request()));
    assert.equal(e.kind, 'network');
    assert.match(e.message, new RegExp(`127\\.0\\.0\\.1:${port}`));
  });

  it('reports a cancelled request as aborted, not as a timeout', async () => {
    fake.rules = [() => ({ ...reply({ score: 1 }), delayMs: 1_000 })];
    const controller = new AbortController();
    const pending = client().complete(request({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    assert.equal((await failure(pending)).kind, 'aborted');
  });
});
