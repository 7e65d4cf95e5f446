// Issue #23: no file chooses where a key goes. The bundled CLI runs against the fake server while a
// second local server, the capture server, stands where a template or a batch state file points:
// it must never receive an Authorization header or any key it was not given on the command line.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeBatchServer } from '../support/fakeBatchServer';
import { FakeOpenAI, type RecordedRequest } from '../support/fakeOpenAI';
import { POINTWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';
import { requireBundle, runCli } from '../support/cliProcess';

const RUN_KEY = 'sk-run-0123456789abcdef';
const OTHER_SECRET = 'ghp-other-secret-0123456789';
const CAPTURE_KEY = 'sk-capture-0123456789abcdef';
const ENV = { OPENAI_API_KEY: RUN_KEY, OTHER_SECRET, CAPTURE_KEY };

/** The pointwise template as a panel: one judge at the run's endpoint, one at `endpoint`. */
function panel(endpoint: string): string {
  return POINTWISE.replace('inputs: [prompt, response]\n---', `inputs: [prompt, response]\nmodel:\n  judges:\n    - model: m\n    - model: m\n      endpoint: ${endpoint}\n---`);
}

/** Every secret in `values` that reached the server, in a header or a body. */
function leaked(requests: readonly RecordedRequest[], values: readonly string[]): string[] {
  return values.filter((v) => requests.some((r) => JSON.stringify(r.headers).includes(v) || JSON.stringify(r.body ?? '').includes(v) || r.prompt.includes(v)));
}

describe('keys go only to the origin they were given for (bundled CLI process)', function () {
  this.timeout(60_000);
  let fake: FakeOpenAI;
  let capture: FakeOpenAI;
  let dir: string;
  let data: string;

  before(requireBundle);
  beforeEach(async () => {
    fake = await FakeOpenAI.start();
    capture = await FakeOpenAI.start();
    dir = tempDir();
    data = writeJsonl(path.join(dir, 'd.jsonl'), [{ prompt: 'p1', response: 'r1' }, { prompt: 'p2', response: 'r2' }]);
  });
  afterEach(async () => {
    await fake.close();
    await capture.close();
  });

  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  it('sends the environment key to --base-url only, never to an endpoint the template names, and says so before the first request', async () => {
    const t = write('t.judge', panel(capture.baseURL));
    const out = path.join(dir, 'r.jsonl');
    const r = await runCli(['run', t, '--data', data, '--base-url', fake.baseURL, '--out', out, '--no-cache'], { env: ENV, deadlineMs: 30_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(capture.chats.length > 0, 'the template endpoint was asked (without a key)');
    for (const req of capture.requests) assert.equal(req.headers.authorization, undefined);
    assert.deepEqual(leaked(capture.requests, Object.values(ENV)), []);
    assert.ok(fake.chats.every((c) => c.headers.authorization === `Bearer ${RUN_KEY}`));
    const origin = new URL(fake.baseURL).origin;
    const named = r.stderr.indexOf(`the API key in $OPENAI_API_KEY goes to ${origin} only`);
    const refused = r.stderr.indexOf(`no API key goes to ${capture.baseURL} (the template names it`);
    const first = r.stderr.indexOf('judging 2 row(s)');
    assert.ok(named >= 0 && refused >= 0 && first > named && first > refused, r.stderr);
    assert.equal(readJsonl(out).length, 2);
  });

  it('gives a named endpoint the key --endpoint-key names for it, and no other key', async () => {
    const t = write('t.judge', panel('cap'));
    const args = ['run', t, '--data', data, '--base-url', fake.baseURL, '--out', path.join(dir, 'r.jsonl'), '--no-cache'];
    const r = await runCli([...args, '--endpoint', `cap=${capture.baseURL}`, '--endpoint-key', 'cap=CAPTURE_KEY'], { env: ENV, deadlineMs: 30_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(capture.chats.length > 0 && capture.chats.every((c) => c.headers.authorization === `Bearer ${CAPTURE_KEY}`));
    assert.deepEqual(leaked(capture.requests, [RUN_KEY, OTHER_SECRET]), []);
    assert.deepEqual(leaked(fake.requests, [CAPTURE_KEY, OTHER_SECRET]), []);
    assert.match(r.stderr, new RegExp(`the API key in \\$CAPTURE_KEY goes to ${new URL(capture.baseURL).origin} only`));
  });

  it('sends the run key to a template endpoint only with --trust-template-endpoints', async () => {
    const t = write('t.judge', panel(capture.baseURL));
    const r = await runCli(['run', t, '--data', data, '--base-url', fake.baseURL, '--out', path.join(dir, 'r.jsonl'), '--no-cache', '--trust-template-endpoints'], { env: ENV, deadlineMs: 30_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(capture.chats.every((c) => c.headers.authorization === `Bearer ${RUN_KEY}`));
    assert.deepEqual(leaked(capture.requests, [OTHER_SECRET, CAPTURE_KEY]), []);
  });

  it('does not send --header values to a template endpoint either', async () => {
    const t = write('t.judge', panel(capture.baseURL));
    const r = await runCli(['run', t, '--data', data, '--base-url', fake.baseURL, '--out', path.join(dir, 'r.jsonl'), '--no-cache', '--header', `X-Api-Key: ${OTHER_SECRET}`], { env: ENV, deadlineMs: 30_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(leaked(capture.requests, Object.values(ENV)), []);
    assert.ok(fake.chats.every((c) => c.headers['x-api-key'] === OTHER_SECRET));
  });

  describe('a batch state file', () => {
    let batchServer: FakeBatchServer;
    let state: string;

    beforeEach(async () => {
      batchServer = await FakeBatchServer.start();
      state = path.join(dir, 'job.state.json');
      const t = write('t.judge', POINTWISE);
      const r = await runCli(['batch', 'submit', t, '--data', data, '--state', state, '--base-url', batchServer.baseURL, '--model', 'm'], { env: ENV, deadlineMs: 30_000 });
      assert.equal(r.code, 0, r.stderr);
    });
    afterEach(() => batchServer.close());

    /** The state as a downloaded or edited file might have it. */
    const tamper = (change: Record<string, unknown>) => fs.writeFileSync(state, JSON.stringify({ ...JSON.parse(fs.readFileSync(state, 'utf8')), ...change }));

    for (const sub of ['status', 'collect', 'cancel']) {
      it(`${sub} refuses a state whose baseURL and apiKeyEnv point elsewhere, shows the difference and sends nothing`, async () => {
        tamper({ baseURL: capture.baseURL, apiKeyEnv: 'OTHER_SECRET' });
        const out = sub === 'collect' ? ['--out', path.join(dir, 'b.jsonl')] : [];
        const r = await runCli(['batch', sub, '--state', state, '--base-url', batchServer.baseURL, ...out], { env: ENV, deadlineMs: 30_000 });
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, new RegExp(`base URL: the state has ${capture.baseURL.replace(/[./]/g, '\\$&')}, the command line gives`));
        assert.match(r.stderr, /key variable: the state has \$OTHER_SECRET, the command line gives \$OPENAI_API_KEY/);
        assert.equal(capture.requests.length, 0);
        assert.ok(!r.stderr.includes(OTHER_SECRET) && !r.stderr.includes(RUN_KEY));
      });
    }

    it('status refuses a state whose apiKeyEnv names another variable even when the base URL matches', async () => {
      tamper({ baseURL: capture.baseURL, apiKeyEnv: 'OTHER_SECRET' });
      const r = await runCli(['batch', 'status', '--state', state, '--base-url', capture.baseURL], { env: ENV, deadlineMs: 30_000 });
      assert.equal(r.code, 2, r.stderr);
      assert.doesNotMatch(r.stderr, /base URL: the state has/);
      assert.match(r.stderr, /key variable: the state has \$OTHER_SECRET/);
      assert.equal(capture.requests.length, 0);
    });

    it('sends the named key where the command line itself says so', async () => {
      tamper({ baseURL: capture.baseURL, apiKeyEnv: 'OTHER_SECRET' });
      await runCli(['batch', 'status', '--state', state, '--base-url', capture.baseURL, '--api-key-env', 'OTHER_SECRET'], { env: ENV, deadlineMs: 30_000 });
      assert.ok(capture.requests.length > 0);
      assert.ok(capture.requests.every((q) => q.headers.authorization === `Bearer ${OTHER_SECRET}`));
      assert.deepEqual(leaked(capture.requests, [RUN_KEY, CAPTURE_KEY]), []);
    });
  });
});
