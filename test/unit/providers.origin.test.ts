import * as assert from 'node:assert/strict';
import { apiKeyFor, describeKeySource, isLoopback, originOf, secretName, type SecretReader } from '../../src/extension/providers/model/origin';

/** A secret store that records every name it is asked for. */
function store(entries: Record<string, string>): SecretReader & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    get(name: string) {
      asked.push(name);
      return Promise.resolve(entries[name]);
    },
  };
}

describe('provider keys bound to an origin', () => {
  it('normalises a URL to its origin: lower-case host, no default port, no path', () => {
    assert.deepEqual(originOf('HTTPS://API.Example.COM:443/v1/'), { ok: true, origin: 'https://api.example.com' });
    assert.deepEqual(originOf(' http://127.0.0.1:8080/v1 '), { ok: true, origin: 'http://127.0.0.1:8080' });
  });

  it('rejects non-http URLs, text that is not a URL, and URLs with credentials', () => {
    for (const bad of ['', 'ftp://x.example/v1', 'localhost:11434', 'file:///etc/passwd', 'https://user:pw@api.example.com/v1']) {
      const o = originOf(bad);
      assert.equal(o.ok, false, `${bad} should be rejected`);
    }
    const creds = originOf('https://user:pw@api.example.com/v1');
    assert.ok(!creds.ok && /Set API Key/.test(creds.error));
  });

  it('returns the key stored for the base URL origin', async () => {
    const secrets = store({ [secretName('http://127.0.0.1:8080')]: 'sk-local' });
    const found = await apiKeyFor('http://127.0.0.1:8080/v1', secrets, {});
    assert.equal(found.key, 'sk-local');
    assert.deepEqual(found.source, { kind: 'stored', origin: 'http://127.0.0.1:8080' });
  });

  it('never returns a key stored for another origin, and reads only the configured origin', async () => {
    const secrets = store({ [secretName('https://api.openai.com')]: 'sk-openai', [secretName('http://127.0.0.1:8080')]: 'sk-local' });
    const others: [string, string][] = [
      ['http://127.0.0.1:8081/v1', 'http://127.0.0.1:8081'],
      ['http://localhost:8080/v1', 'http://localhost:8080'],
      ['https://127.0.0.1:8080/v1', 'https://127.0.0.1:8080'],
      ['https://api.openai.com.evil.example/v1', 'https://api.openai.com.evil.example'],
    ];
    for (const [other, origin] of others) {
      secrets.asked.length = 0;
      const found = await apiKeyFor(other, secrets, {});
      assert.equal(found.key, undefined, `no key for ${other}`);
      assert.deepEqual(found.source, { kind: 'none', origin });
      assert.deepEqual(secrets.asked, [secretName(origin)], 'only the configured origin is read');
    }
  });

  it('uses OPENAI_API_KEY only for https://api.openai.com', async () => {
    const env = { OPENAI_API_KEY: 'sk-env' };
    const openai = await apiKeyFor('https://api.openai.com/v1', store({}), env);
    assert.equal(openai.key, 'sk-env');
    assert.deepEqual(openai.source, { kind: 'env', variable: 'OPENAI_API_KEY' });
    for (const other of ['http://api.openai.com/v1', 'http://127.0.0.1:11434/v1', 'https://openrouter.ai/api/v1']) {
      assert.equal((await apiKeyFor(other, store({}), env)).key, undefined, `no env key for ${other}`);
    }
  });

  it('prefers the stored key over the environment for OpenAI', async () => {
    const found = await apiKeyFor('https://api.openai.com/v1', store({ [secretName('https://api.openai.com')]: 'sk-stored' }), { OPENAI_API_KEY: 'sk-env' });
    assert.equal(found.key, 'sk-stored');
  });

  it('describes where a key came from without the key', async () => {
    const found = await apiKeyFor('http://127.0.0.1:9/v1', store({ [secretName('http://127.0.0.1:9')]: 'sk-do-not-print' }), {});
    const text = describeKeySource(found.source);
    assert.equal(text, 'API key stored for http://127.0.0.1:9');
    assert.ok(!text.includes('sk-do-not-print'));
  });

  it('treats localhost, 127.x and ::1 as this machine, and nothing else', () => {
    for (const o of ['http://localhost:11434', 'http://127.0.0.1:8080', 'http://127.1.2.3', 'http://[::1]:8000']) assert.ok(isLoopback(o), o);
    for (const o of ['https://api.openai.com', 'http://127.0.0.1.nip.io', 'http://10.0.0.2:8000']) assert.ok(!isLoopback(o), o);
  });
});
