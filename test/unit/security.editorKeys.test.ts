// The editor's origin binding for a template's panel: an https endpoint the template names gets no
// key (neither the one stored for the configured endpoint nor $OPENAI_API_KEY) and none of the
// configured headers; the configured endpoint gets its own. Requests are captured at the fetch
// the real client uses.
import * as assert from 'node:assert/strict';
import { apiKeyFor, originOf, secretName } from '../../src/extension/providers/model/origin';
import { panelClients, planPanel } from '../../src/extension/providers/model/panel';

interface Captured {
  url: string;
  headers: Record<string, string>;
  body: string;
}

function capturingFetch(seen: Captured[]): typeof fetch {
  return async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
    seen.push({ url: String(input), headers, body: String(init?.body ?? '') });
    const completion = { id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: '{"justification":"j","score":3}' }, finish_reason: 'stop' }] };
    return new Response(JSON.stringify(completion), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

describe('editor: keys stay bound to their origin for panel endpoints a template names', () => {
  const STORED = 'sk-stored-for-example-0123456789';
  const ENV_KEY = 'sk-env-openai-0123456789';
  const HEADER = 'hdr-secret-0123456789';
  const secrets = { get: async (name: string) => (name === secretName('https://api.example.com') ? STORED : undefined) };
  const env = { OPENAI_API_KEY: ENV_KEY };

  it('sends nothing secret to an https template endpoint and the stored key only to its own origin', async () => {
    const plan = planPanel([{ model: 'a' }, { model: 'b', endpoint: 'https://judge.elsewhere.example/v1' }], {
      baseUrl: 'https://api.example.com/v1',
      headers: { 'X-Api-Key': HEADER },
      endpoints: {},
    });
    assert.ok(plan.ok);
    const seen: Captured[] = [];
    const logged: string[] = [];
    const built = await panelClients(plan.members, ['a', 'b'], {
      keyFor: (url) => apiKeyFor(url, secrets, env),
      timeoutMs: 5_000,
      log: { info: (m) => logged.push(m), warn: (m) => logged.push(m) },
      fetch: capturingFetch(seen),
    });
    assert.ok(built.ok, built.ok ? '' : built.message);
    for (const m of built.members) await m.client.complete({ model: 'm', messages: [{ role: 'user', content: 'rate' }] });

    const to = (host: string) => seen.filter((s) => new URL(s.url).host === host);
    const elsewhere = to('judge.elsewhere.example');
    assert.equal(elsewhere.length, 1);
    assert.equal(elsewhere[0]!.headers.authorization, undefined);
    for (const value of [STORED, ENV_KEY, HEADER]) assert.ok(!JSON.stringify(elsewhere).includes(value), `${value.slice(0, 8)}… reached the template endpoint`);
    const own = to('api.example.com');
    assert.equal(own[0]!.headers.authorization, `Bearer ${STORED}`);
    assert.equal(own[0]!.headers['x-api-key'], HEADER);
    assert.ok(logged.some((l) => /panel judge b: https:\/\/judge\.elsewhere\.example · no API key for https:\/\/judge\.elsewhere\.example/.test(l)), logged.join('\n'));
    assert.ok(!logged.join('\n').includes(STORED) && !logged.join('\n').includes(HEADER));
  });

  it('refuses a base URL with a credential in its query, naming the parameter and not its value', () => {
    const o = originOf('https://api.example.com/v1?api-key=sk-in-the-url');
    assert.ok(!o.ok && /credential in its query \(api-key\)/.test(o.error) && !o.error.includes('sk-in-the-url'));
    assert.ok(originOf('https://x.openai.azure.com/openai?api-version=2024-10-21').ok);
  });
});
