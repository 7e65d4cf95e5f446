// The chat transport over node:http: redirects are refused (a key never follows one), compressed
// replies are read, and cancelling ends every call in flight at once.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { OpenAICompatibleClient } from '../../src/core/judge/transport/openaiClient';
import { JudgeError } from '../../src/core/judge/transport/types';
import { FakeOpenAI } from '../support/fakeOpenAI';

async function server(handler: http.RequestListener): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const s = http.createServer((req, res) => {
    hits++;
    handler(req, res);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/v1`,
    hits: () => hits,
    close: () => new Promise((resolve) => {
      s.closeAllConnections();
      s.close(() => resolve());
    }),
  };
}

const completion = JSON.stringify({ id: 'c', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: '{"score": 4}' }, finish_reason: 'stop' }] });

describe('chat transport (node:http)', () => {
  it('refuses a redirect instead of following it with the key, and does not retry it', async () => {
    const elsewhere = await FakeOpenAI.start();
    const redirecting = await server((_req, res) => {
      res.writeHead(307, { location: `${elsewhere.baseURL}/chat/completions` });
      res.end();
    });
    try {
      const client = new OpenAICompatibleClient({ baseURL: redirecting.url, apiKey: 'sk-secret-value', timeoutMs: 5_000 });
      await assert.rejects(client.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }), (e: unknown) => {
        assert.ok(e instanceof JudgeError);
        assert.equal(e.retryable, false);
        assert.match(e.message, /answered with a redirect \(307\); redirects are not followed/);
        return true;
      });
      assert.equal(elsewhere.requests.length, 0, 'the redirect target received nothing');
    } finally {
      await redirecting.close();
      await elsewhere.close();
    }
  });

  it('reads a gzip-compressed reply', async () => {
    const gz = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(completion));
    });
    try {
      const client = new OpenAICompatibleClient({ baseURL: gz.url, timeoutMs: 5_000 });
      const reply = await client.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(reply.text, '{"score": 4}');
    } finally {
      await gz.close();
    }
  });

  it('ends every call in flight when the run is cancelled, as cancelled, not as network errors', async () => {
    const hanging = await server(() => undefined);
    try {
      const client = new OpenAICompatibleClient({ baseURL: hanging.url, timeoutMs: 60_000 });
      const stop = new AbortController();
      const calls = Array.from({ length: 5 }, () => client.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }], signal: stop.signal }));
      while (hanging.hits() < 5) await new Promise((r) => setTimeout(r, 5));
      stop.abort();
      const results = await Promise.allSettled(calls);
      for (const r of results) {
        assert.equal(r.status, 'rejected');
        assert.equal((r as PromiseRejectedResult).reason.kind, 'aborted');
      }
    } finally {
      await hanging.close();
    }
  });
});
