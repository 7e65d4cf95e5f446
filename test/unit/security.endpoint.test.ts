// The endpoint rules every front end shares: which hosts are this machine, which headers and query
// parameters are credentials, and how a URL is refused or printed without them.
import * as assert from 'node:assert/strict';
import { checkEndpoint, isCredentialHeader, isCredentialParam, isLoopbackHost, redactUrl } from '../../src/core/judge/transport/endpoint';

describe('endpoint rules', () => {
  it('counts only localhost, 127.0.0.0/8 and [::1] as this machine', () => {
    for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.3.2.1', '[::1]', '::1']) assert.equal(isLoopbackHost(h), true, h);
    // `localhost.` is a fully qualified name: DNS answers it, not this machine's hosts file.
    for (const h of ['foo.localhost', 'localhost.example.com', '128.0.0.1', '10.0.0.1', '[::2]', '127.0.0.1.nip.io', 'localhost.']) assert.equal(isLoopbackHost(h), false, h);
    assert.equal(isLoopbackHost(new URL('http://foo.localhost:8080/v1').hostname), false);
  });

  it('treats the known credential headers and any name with key, token, secret or auth as credentials', () => {
    for (const h of ['Authorization', 'proxy-authorization', 'Cookie', 'X-Goog-Api-Key', 'Ocp-Apim-Subscription-Key', 'api-key', 'X-API-KEY', 'X-Auth-Token', 'x-client-secret', 'X-Amz-Security-Token']) {
      assert.equal(isCredentialHeader(h), true, h);
    }
    for (const h of ['X-Team', 'Content-Type', 'OpenAI-Organization', 'X-Request-Id', 'Accept', 'X-Compass']) assert.equal(isCredentialHeader(h), false, h);
  });

  it('treats password, signature and session headers as credentials too: never over plain http to another machine', () => {
    for (const h of ['X-Password', 'X-Signature', 'X-Session-Id', 'X-Sig', 'X-Jwt', 'X-Pass']) {
      assert.equal(isCredentialHeader(h), true, h);
      const c = checkEndpoint('http://judge.example:8000/v1', { sendsCredentials: isCredentialHeader(h) });
      assert.ok(!c.ok && /plain http to judge\.example:8000/.test(c.message), h);
    }
    assert.ok(!checkEndpoint('http://localhost.:8000/v1', { sendsCredentials: true }).ok, 'localhost. is not this machine');
  });

  it('refuses credentials in ?jwt=, a #fragment, a ;key= path parameter or a key-shaped path segment, naming where and never the value', () => {
    for (const [url, where] of [
      ['https://h.example/v1?jwt=eyJhbGciOiJIUzI1NiJ9.e30.c2ln', /credential in its query \(jwt\)/],
      ['https://h.example/v1#key=s3cret-0123456789', /carries a #fragment/],
      ['https://h.example/v1;key=s3cret-0123456789/chat', /carries the path parameter ;key=/],
      ['https://h.example/sk-proj-0123456789abcdefgh/v1', /carries a path segment shaped like a key/],
    ] as const) {
      const c = checkEndpoint(url, { sendsCredentials: false });
      assert.ok(!c.ok && where.test(c.message), `${url}: ${JSON.stringify(c)}`);
      assert.doesNotMatch(c.message, /eyJhbGci|s3cret|sk-proj-0123/);
      assert.doesNotMatch(redactUrl(url), /eyJhbGci|s3cret|sk-proj-0123/);
    }
    assert.ok(checkEndpoint('https://r.openai.azure.com/openai/deployments/gpt-4o-mini', { sendsCredentials: true }).ok);
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
