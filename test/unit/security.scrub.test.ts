// What scrubbing masks: the values in use (as written, URL-encoded, or as a bearer token), and in
// error text anything shaped like a credential, while ordinary words stay readable.
import * as assert from 'node:assert/strict';
import { cliSecrets } from '../../src/cli/secrets';
import { MASK, scrubReply, scrubSecrets, scrubValues, secretsFromEnv } from '../../src/core/security/scrub';
import { scrubbedLog } from '../../src/extension/scrubbedLog';

describe('scrubbing secrets', () => {
  it('masks the values in use, longest first, URL-encoded too, and ignores values too short to be keys', () => {
    assert.equal(scrubValues('key abc/def+ghi and abc%2Fdef%2Bghi', ['abc/def+ghi']), `key ${MASK} and ${MASK}`);
    assert.equal(scrubValues('token t0k3n-long-value in Bearer t0k3n-long-value', ['Bearer t0k3n-long-value']), `token ${MASK} in ${MASK}`);
    assert.equal(scrubValues('json mode', ['json']), 'json mode');
  });

  it('masks credential shapes in error text: bearer tokens, common key formats, key=value', () => {
    const cases: [string, string][] = [
      ['Authorization: Bearer abcdefgh12345678', `Authorization: Bearer ${MASK}`],
      ['Incorrect API key provided: sk-proj-AbCdEf0123456789xyz.', `Incorrect API key provided: ${MASK}.`],
      ['token ghp_0123456789abcdefABCDEF rejected', `token ${MASK} rejected`],
      ['google AIzaSyA-0123456789abcdefghijklmnopqrs', `google ${MASK}`],
      ['aws AKIAABCDEFGHIJKLMNOP', `aws ${MASK}`],
      ['{"api_key": "0123456789abcdefXYZ"}', `{"api_key": "${MASK}"}`],
      ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', `jwt ${MASK}`],
    ];
    for (const [text, want] of cases) assert.equal(scrubSecrets(text), want, text);
    for (const plain of ['max_tokens: 4096 is too large', 'model gpt-4o-mini does not exist', 'rate limited (429): slow down', 'the skill-based routing']) {
      assert.equal(scrubSecrets(plain), plain);
    }
  });

  it('collects the CLI process secrets: named key variables, secret-looking names and credential headers', () => {
    const env = { OPENAI_API_KEY: 'sk-openai-0123456789', JUDGE_CRED: 'cred-0123456789', OTHER: 'not-a-secret-value', MY_TOKEN: 'tok-0123456789', B: 'b-key-0123456789' };
    const got = cliSecrets(['run', 't', '--api-key-env', 'JUDGE_CRED', '--endpoint-key=b=B', '--header', 'X-Api-Key: hdr-0123456789', '--header', 'X-Team: team-0123456789'], env);
    assert.deepEqual([...got].sort(), ['b-key-0123456789', 'cred-0123456789', 'hdr-0123456789', 'sk-openai-0123456789', 'tok-0123456789']);
    assert.deepEqual(secretsFromEnv({ SHORT_KEY: 'abc' }), []);
  });

  it('scrubs a reply in one place: its text of the values in use, its model of values and credential shapes, bounded to one line', () => {
    const scrubbed = scrubReply({ text: 'called with key-0123456789abc; token: abcdefghijklmnop stays', model: `m-key-0123456789abc sk-proj-0123456789abcdefgh\n${'x'.repeat(500)}`, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } }, ['key-0123456789abc']);
    assert.equal(scrubbed.text, `called with ${MASK}; token: abcdefghijklmnop stays`, 'a judge writing about tokens is not rewritten');
    assert.ok(scrubbed.model.startsWith(`m-${MASK} ${MASK} x`), scrubbed.model);
    assert.ok(!scrubbed.model.includes('\n') && scrubbed.model.length <= 201, `${scrubbed.model.length} characters`);
    assert.deepEqual(scrubbed.usage, { promptTokens: 1, completionTokens: 1, totalTokens: 2 });
  });

  it("masks what anything writes to the editor's output channel: messages, errors and their stacks", () => {
    const written: unknown[][] = [];
    const channel = Object.freeze({ name: 'Judge Studio', info: (...a: unknown[]) => void written.push(a), error: (...a: unknown[]) => void written.push(a), appendLine: (...a: unknown[]) => void written.push(a) });
    const log = scrubbedLog(channel as never, { OPENAI_API_KEY: 'env-key-0123456789' }) as unknown as typeof channel;
    log.info('sent Bearer abcdefgh12345678 and env-key-0123456789');
    log.error('batch failed', new Error('401 Incorrect API key provided: sk-proj-AbCdEf0123456789xyz'));
    log.appendLine('plain text stays');
    assert.equal(written[0]![0], `sent Bearer ${MASK} and ${MASK}`);
    const e = written[1]![1] as Error;
    assert.equal(e.message, `401 Incorrect API key provided: ${MASK}`);
    assert.ok(!String(e.stack).includes('sk-proj-AbCdEf'), String(e.stack));
    assert.equal(written[2]![0], 'plain text stays');
    assert.equal((log as { name: string }).name, 'Judge Studio');
  });
});

