// The endpoint rules every front end shares: which hosts are this machine, which headers and query
// parameters are credentials, and how a URL is refused or printed without them.
import * as assert from 'node:assert/strict';
import { checkEndpoint, isCredentialHeader, isCredentialParam, isLoopbackHost, redactUrl } from '../../src/core/judge/transport/endpoint';

describe('endpoint rules', () => {
  it('counts only localhost, 127.0.0.0/8 and [::1] as this machine', () => {
    for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.3.2.1', '[::1]', '::1']) assert.equal(isLoopbackHost(h), true, h);
    for (const h of ['foo.localhost', 'localhost.example.com', '128.0.0.1', '10.0.0.1', '[::2]', '127.0.0.1.nip.io']) assert.equal(isLoopbackHost(h), false, h);
    assert.equal(isLoopbackHost(new URL('http://foo.localhost:8080/v1').hostname), false);
  });

  it('treats the known credential headers and any name with key, token, secret or auth as credentials', () => {
    for (const h of ['Authorization', 'proxy-authorization', 'Cookie', 'X-Goog-Api-Key', 'Ocp-Apim-Subscription-Key', 'api-key', 'X-API-KEY', 'X-Auth-Token', 'x-client-secret', 'X-Amz-Security-Token']) {
      assert.equal(isCredentialHeader(h), true, h);
    }
    for (const h of ['X-Team', 'Content-Type', 'OpenAI-Organization', 'X-Request-Id']) assert.equal(isCredentialHeader(h), false, h);
  });

  it('refuses a base URL with a credential in its query, and prints it with the value masked', () => {
    for (const url of ['https://h.example/v1?api-key=sk-abc', 'https://h.example/v1?key=AIza123', 'https://h.example/v1?access_token=t', 'https://h.example/v1?code=fn-key', 'https://h.example/v1?x=1&sig=abc']) {
      const c = checkEndpoint(url, { sendsCredentials: false });
      assert.ok(!c.ok && /credential in its query/.test(c.message), url);
      assert.doesNotMatch(c.message, /sk-abc|AIza123|=t\b|fn-key|sig=abc/);
    }
    assert.ok(checkEndpoint('https://r.openai.azure.com/openai?api-version=2024-10-21', { sendsCredentials: true }).ok);
    assert.equal(redactUrl('https://h.example/v1?api-key=sk-abc&api-version=1'), 'https://h.example/v1?api-key=***&api-version=1');
    assert.equal(redactUrl('https://u:p@h.example/v1'), 'https://***@h.example/v1');
    assert.equal(isCredentialParam('api-version'), false);
  });

  it('refuses a key over plain http to foo.localhost, which is not this machine', () => {
    const c = checkEndpoint('http://foo.localhost:8080/v1', { sendsCredentials: true });
    assert.ok(!c.ok && /plain http to foo\.localhost:8080/.test(c.message));
    assert.ok(checkEndpoint('http://localhost:8080/v1', { sendsCredentials: true }).ok);
  });
});
