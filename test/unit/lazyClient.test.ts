// The editor's judge client loads the openai SDK on its first request; until then it names
// itself as the real client does, and its requests are the real client's.
import * as assert from 'node:assert/strict';
import { OpenAICompatibleClient, type OpenAIClientOptions } from '../../src/core/judge/transport/openaiClient';
import { LazyOpenAIClient } from '../../src/extension/lazyClient';
import { FakeOpenAI, reply } from '../support/fakeOpenAI';

describe('the lazily loaded judge client', () => {
  let fake: FakeOpenAI;
  before(async () => (fake = await FakeOpenAI.start()));
  after(() => fake.close());

  it('has the id of the client it stands for', () => {
    const all: OpenAIClientOptions[] = [{ baseURL: 'http://u:p@127.0.0.1:9/v1', timeoutMs: 1000 }, { baseURL: 'https://x.openai.azure.com/openai', azureApiVersion: '2024-06-01', apiKey: 'k', timeoutMs: 1000 }];
    for (const options of all) {
      assert.equal(new LazyOpenAIClient(options).id, new OpenAICompatibleClient(options).id);
    }
  });

  it('sends requests through the real client once loaded', async () => {
    fake.rules = [() => reply({ score: 2 })];
    const client = new LazyOpenAIClient({ baseURL: fake.baseURL, timeoutMs: 5000, apiKey: 'k' });
    const request = { model: 'm', messages: [{ role: 'user' as const, content: 'Rate.' }] };
    assert.equal((await client.complete(request)).text, '{"score":2}');
    assert.equal((await client.complete(request)).text, '{"score":2}');
    assert.equal(fake.chats.length, 2);
    assert.equal(fake.chats[0]!.headers.authorization, 'Bearer k');
  });
});
