// Issue #23: a server that echoes the key it receives (in 401, 400 and 500 bodies, in a rejected
// response_format, in a reply) never gets it into anything the tool writes: every file under the
// run's directory (results, cache, manifest, lock), stdout and stderr are searched for it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeOpenAI, type RecordedRequest } from '../support/fakeOpenAI';
import { POINTWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';
import { requireBundle, runCli } from '../support/cliProcess';

/** Not shaped like any known key format, so only the value-based scrub can catch it. */
const KEY = 'zq8-echo-7f3a9c0b1d2e4f5a6b7c';
const HEADER = 'hdr-echo-secret-0123456789';

/** Everything the server received that is secret, as it would echo it. */
const received = (r: RecordedRequest) => `authorization=${String(r.headers.authorization)} x-api-key=${String(r.headers['x-api-key'])}`;

function echoing(): FakeOpenAI['rules'] {
  return [
    (r) => (r.prompt.includes('<<401>>') ? { status: 401, json: { error: { message: `Incorrect API key provided: ${received(r)}`, type: 'invalid_request_error' } } } : undefined),
    (r) => (r.prompt.includes('<<400>>') ? { status: 400, json: { error: { message: `bad request from ${received(r)}`, type: 'invalid_request_error' } } } : undefined),
    (r) => (r.prompt.includes('<<500>>') ? { status: 500, text: `upstream failed for ${received(r)}` } : undefined),
    // The first structured request is refused with the key in the message: the client lowers the mode and logs why.
    (r) => (r.body?.response_format?.type === 'json_schema' ? { status: 400, json: { error: { message: `response_format json_schema is not supported (${received(r)})` } } } : undefined),
    (r) => (r.prompt.includes('<<ok>>') ? { reply: JSON.stringify({ justification: `I was called with ${received(r)}`, score: 4 }) } : undefined),
  ];
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('secrets a server echoes are never stored or printed (bundled CLI process)', function () {
  this.timeout(60_000);
  let fake: FakeOpenAI;
  let dir: string;
  let work: string;

  before(requireBundle);
  beforeEach(async () => {
    fake = await FakeOpenAI.start({ rules: echoing() });
    dir = tempDir();
    work = path.join(dir, 'work');
    fs.mkdirSync(work);
  });
  afterEach(() => fake.close());

  it('keeps the key and credential headers out of the results, the cache, stdout and stderr', async () => {
    const t = path.join(work, 't.judge');
    fs.writeFileSync(t, POINTWISE);
    const data = writeJsonl(path.join(work, 'd.jsonl'), ['ok', '401', '400', '500'].map((k) => ({ prompt: `q ${k}`, response: `<<${k}>>` })));
    const out = path.join(work, 'r.jsonl');
    const args = ['run', t, '--data', data, '--base-url', fake.baseURL, '--model', 'm', '--out', out, '--api-key-env', 'JUDGE_CRED', '--header', `X-Api-Key: ${HEADER}`];
    const r = await runCli([...args, '--retries', '0', '--concurrency', '1', '--max-outage', '5s', '--cache-dir', path.join(work, 'cache'), '--json'], {
      env: { JUDGE_CRED: KEY, JUDGE_STUDIO_OUTAGE_BASE_MS: '50' },
      deadlineMs: 40_000,
    });
    assert.equal(r.killed, false, r.stderr);
    assert.equal(r.code, 1, r.stderr);
    assert.ok(fake.chats.some((c) => c.headers.authorization === `Bearer ${KEY}`), 'the server did receive the key');

    const written = filesUnder(work).filter((f) => f !== t && f !== data);
    assert.ok(written.includes(out) && written.some((f) => f.includes(`${path.sep}cache${path.sep}`)), written.join('\n'));
    for (const [what, text] of [...written.map((f) => [f, fs.readFileSync(f, 'latin1')] as const), ['stdout', r.stdout] as const, ['stderr', r.stderr] as const]) {
      assert.ok(!text.includes(KEY), `the key is in ${what}`);
      assert.ok(!text.includes(HEADER), `the X-Api-Key value is in ${what}`);
    }
    // The messages still say what happened.
    const byResponse = Object.fromEntries(readJsonl(out).map((l) => [String(l.response), l]));
    assert.match(String(byResponse['<<401>>']?.['quality/error']), /request rejected \(401\): Incorrect API key provided: authorization=Bearer «redacted»/);
    assert.equal(byResponse['<<500>>']?.['quality/error_kind'], 'server');
    assert.match(String(byResponse['<<ok>>']?.['quality/justification']), /called with authorization=Bearer «redacted»/);
    assert.match(r.stderr, /rejected response_format json_schema \(400 response_format json_schema is not supported \(authorization=Bearer «redacted»/);
  });

  it('refuses a base URL with a key in its query, its fragment or its path before any request, without printing or storing the key', async () => {
    const t = path.join(work, 't.judge');
    fs.writeFileSync(t, POINTWISE);
    const data = writeJsonl(path.join(work, 'd.jsonl'), [{ prompt: 'q', response: 'r' }]);
    const base = fake.baseURL;
    const where = new URL(base);
    for (const [url, why] of [
      [`${base}?api-key=${KEY}`, /carries a credential in its query/],
      [`${base}?key=${KEY}`, /carries a credential in its query/],
      [`${base}?access_token=${KEY}`, /carries a credential in its query/],
      [`${base}?jwt=${KEY}`, /carries a credential in its query \(jwt\)/],
      [`${base}#key=${KEY}`, /carries a #fragment/],
      [`${base};key=${KEY}`, /carries the path parameter ;key=/],
      [`${where.origin}/sk-${KEY}/v1`, /carries a path segment shaped like a key/],
    ] as const) {
      const r = await runCli(['run', t, '--data', data, '--base-url', url, '--model', 'm', '--out', path.join(work, 'q.jsonl'), '--json'], { deadlineMs: 20_000 });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, why);
      assert.ok(!r.stderr.includes(KEY) && !r.stdout.includes(KEY), r.stderr);
      assert.equal(fs.existsSync(path.join(work, 'q.jsonl.run.json')), false, 'no manifest records it');
    }
    assert.equal(fake.requests.length, 0);
  });
});
