// Providers in the real extension host: keys in SecretStorage bound to an origin, the endpoint
// read from user (and trusted workspace) settings, and the refusal when nothing is configured.
// Two local fake OpenAI servers on different ports are two origins.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestOutcome } from '../../../src/extension/providers';
import { LanguageModelClient } from '../../../src/extension/providers/lmClient';
import { FakeOpenAI, reply } from '../../support/fakeOpenAI';
import { EXTENSION_ID } from './util';

const NOT_CONFIGURED = 'No judge is configured. Set an OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio, llama.cpp) or install a language-model provider.';
const ENDPOINT_KEYS = ['endpoint.baseUrl', 'endpoint.model', 'endpoint.headers', 'provider'];

const config = () => vscode.workspace.getConfiguration('judgeStudio');
const test = () => vscode.commands.executeCommand<TestOutcome>('judgeStudio.testConnection', { interactive: false });
const configure = (baseUrl: string, model = 'm') => vscode.commands.executeCommand('judgeStudio.configureEndpoint', { baseUrl, model });
const originOf = (fake: FakeOpenAI) => `http://127.0.0.1:${fake.port}`;

async function resetSettings(target: vscode.ConfigurationTarget): Promise<void> {
  for (const key of ENDPOINT_KEYS) await config().update(key, undefined, target);
}

function ok(outcome: TestOutcome): Extract<TestOutcome, { ok: true }> {
  assert.ok(outcome.ok, `the connection test failed: ${outcome.ok ? '' : `${outcome.reason}: ${outcome.message}`}`);
  return outcome;
}

describe('providers: keys, settings and the judge a run uses', () => {
  let a: FakeOpenAI;
  let b: FakeOpenAI;

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    const pong = () => reply({ ok: true });
    [a, b] = await Promise.all([FakeOpenAI.start({ rules: [pong] }), FakeOpenAI.start({ rules: [pong] })]);
  });

  afterEach(async () => {
    await resetSettings(vscode.ConfigurationTarget.Global);
    await resetSettings(vscode.ConfigurationTarget.Workspace);
    for (const fake of [a, b]) await vscode.commands.executeCommand('judgeStudio.clearApiKey', { origin: originOf(fake) });
    a.requests.length = 0;
    b.requests.length = 0;
  });

  after(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it('sends a stored key to its own origin and never to another one', async () => {
    const stored = await vscode.commands.executeCommand('judgeStudio.setApiKey', { origin: a.baseURL, key: 'sk-e2e-origin-a' });
    assert.equal(stored, originOf(a), 'the key is stored under the origin, not the full URL');

    await configure(b.baseURL);
    ok(await test());
    assert.equal(b.chats.length, 1);
    assert.equal(b.chats[0]!.headers.authorization, undefined, 'no Authorization header goes to the other origin');
    assert.equal(a.requests.length, 0);

    await configure(a.baseURL);
    ok(await test());
    assert.equal(a.chats.length, 1);
    assert.equal(a.chats[0]!.headers.authorization, 'Bearer sk-e2e-origin-a');
  });

  it('sends header settings only to the origin set beside them, never to a base URL the workspace chose', async () => {
    await config().update('endpoint.baseUrl', a.baseURL, vscode.ConfigurationTarget.Global);
    await config().update('endpoint.model', 'm', vscode.ConfigurationTarget.Global);
    await config().update('endpoint.headers', { 'api-key': 'user-secret-e2e' }, vscode.ConfigurationTarget.Global);
    ok(await test());
    assert.equal(a.chats[0]!.headers['api-key'], 'user-secret-e2e', 'the header reaches the origin it was set for');

    await config().update('endpoint.baseUrl', b.baseURL, vscode.ConfigurationTarget.Workspace);
    ok(await test());
    assert.equal(b.chats.length, 1, 'the workspace-chosen endpoint is asked');
    assert.equal(b.chats[0]!.headers['api-key'], undefined, 'the user\'s header never reaches the workspace-chosen origin');
    assert.ok(!JSON.stringify(b.requests.map((r) => r.headers)).includes('user-secret-e2e'));
  });

  it('stops sending a key once it is cleared', async () => {
    await vscode.commands.executeCommand('judgeStudio.setApiKey', { origin: originOf(a), key: 'sk-e2e-cleared' });
    assert.equal(await vscode.commands.executeCommand('judgeStudio.clearApiKey', { origin: a.baseURL }), true);
    await configure(a.baseURL);
    ok(await test());
    assert.equal(a.chats[0]!.headers.authorization, undefined);
  });

  it('asks the endpoint and model set in user settings', async () => {
    await config().update('endpoint.baseUrl', b.baseURL, vscode.ConfigurationTarget.Global);
    await config().update('endpoint.model', 'judge-e2e', vscode.ConfigurationTarget.Global);
    const outcome = ok(await test());
    assert.equal(outcome.label, `openai-compatible ${b.baseURL} · judge-e2e`);
    assert.equal(outcome.reply, '{"ok":true}');
    assert.equal(b.chats[0]!.body?.model, 'judge-e2e');
    assert.equal(b.chats[0]!.path, '/v1/chat/completions');
  });

  it("lets a trusted workspace's endpoint setting win over the user's", async () => {
    assert.ok(vscode.workspace.isTrusted, 'the extension-host suite runs in a trusted workspace');
    await configure(a.baseURL);
    await config().update('endpoint.baseUrl', b.baseURL, vscode.ConfigurationTarget.Workspace);
    ok(await test());
    assert.equal(b.chats.length, 1);
    assert.equal(a.requests.length, 0);
  });

  it('refuses with a clear message when no endpoint and no language model is available', async function () {
    if ((await vscode.lm.selectChatModels()).length > 0) this.skip(); // a real language model would be the judge
    const outcome = await test();
    assert.deepEqual(outcome, { ok: false, reason: 'not-configured', message: NOT_CONFIGURED });
  });

  it('rejects a key for a URL that is not http or https, saying why', async () => {
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('judgeStudio.setApiKey', { origin: 'ftp://files.example/v1', key: 'sk-x' })),
      /not an http or https URL/,
    );
  });
});

describe('providers: the VS Code language model client', () => {
  /** A chat model that answers with `answer(messages, token)` and records what it was sent. */
  function fakeModel(answer: (token: vscode.CancellationToken) => Promise<AsyncIterable<string>>) {
    const sent: vscode.LanguageModelChatMessage[][] = [];
    const tokens: vscode.CancellationToken[] = [];
    const model = {
      id: 'fake-lm-1', name: 'Fake LM', vendor: 'fake', family: 'fake-family', version: '1', maxInputTokens: 8000,
      countTokens: async () => 0,
      sendRequest: async (messages: vscode.LanguageModelChatMessage[], _options: unknown, token: vscode.CancellationToken) => {
        sent.push(messages);
        tokens.push(token);
        const text = await answer(token);
        return { text, stream: text };
      },
    } as unknown as vscode.LanguageModelChat;
    return { model, sent, tokens };
  }
  const chunks = async function* (...parts: string[]) {
    yield* parts;
  };
  const never = () => new Promise<never>(() => {});
  const textOf = (m: vscode.LanguageModelChatMessage) => m.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
  const request = { model: 'fake-lm-1', messages: [{ role: 'system' as const, content: 'You judge.' }, { role: 'user' as const, content: 'Rate it.' }] };

  it('folds the system message into the first user message and joins the streamed reply', async () => {
    const fake = fakeModel(async () => chunks('{"justification": "ok", ', '"score": 4}'));
    const response = await new LanguageModelClient(fake.model, { timeoutMs: 5_000 }).complete(request);
    assert.deepEqual(response, { text: '{"justification": "ok", "score": 4}', model: 'fake-lm-1' });
    const [messages] = fake.sent;
    assert.equal(messages?.length, 1);
    assert.equal(messages?.[0]?.role, vscode.LanguageModelChatMessageRole.User);
    assert.equal(textOf(messages![0]!), 'You judge.\n\nRate it.');
  });

  it('reports a refused permission as a configuration error that is not retried', async () => {
    const fake = fakeModel(async () => {
      throw vscode.LanguageModelError.NoPermissions('the user said no');
    });
    await assert.rejects(new LanguageModelClient(fake.model, { timeoutMs: 5_000 }).complete(request), (e: { kind?: string; retryable?: boolean; message: string }) => {
      assert.equal(e.kind, 'config');
      assert.equal(e.retryable, false);
      assert.match(e.message, /has not allowed Judge Studio to use fake-lm-1/);
      return true;
    });
  });

  it('gives up on a model that never answers at the deadline, cancelling its request', async () => {
    const fake = fakeModel(never);
    await assert.rejects(new LanguageModelClient(fake.model, { timeoutMs: 300 }).complete(request), (e: { kind?: string; message: string }) => {
      assert.equal(e.kind, 'timeout');
      assert.match(e.message, /within 300 ms/);
      return true;
    });
    assert.equal(fake.tokens[0]?.isCancellationRequested, true);
  });

  it('stops mid-reply when the run is cancelled, never returning the partial text', async () => {
    const abort = new AbortController();
    const fake = fakeModel(async () =>
      (async function* () {
        yield '{"score": ';
        abort.abort();
        await never();
      })(),
    );
    await assert.rejects(new LanguageModelClient(fake.model, { timeoutMs: 5_000 }).complete({ ...request, signal: abort.signal }), (e: { kind?: string }) => {
      assert.equal(e.kind, 'aborted');
      return true;
    });
    assert.equal(fake.tokens[0]?.isCancellationRequested, true);
  });
});
