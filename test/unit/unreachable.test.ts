// A judge never reached (a wrong base URL, a server not started) stops the run after a few calls with
// a hint naming the URL; an endpoint that answered before it went away keeps the outage's patience.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { runCommand } from '../../src/cli/commands/run';
import { EXIT_FINDINGS } from '../../src/cli/io';
import { OutageGate } from '../../src/core/judge/transport/outage';
import { JudgeError } from '../../src/core/judge/transport/types';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { captureIO, POINTWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';

/** A port on 127.0.0.1 that nobody listens on: every connection is refused. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function workspace(rows: number): string {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'q.judge'), POINTWISE);
  writeJsonl(path.join(dir, 'd.jsonl'), Array.from({ length: rows }, (_, i) => ({ prompt: 'p', response: `r${i + 1}` })));
  return dir;
}

async function run(dir: string, baseURL: string, extra: string[]) {
  const io = captureIO(dir, { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache'), JUDGE_STUDIO_OUTAGE_BASE_MS: '200' });
  const code = await runCommand(['q.judge', '--data', 'd.jsonl', '--base-url', baseURL, '--model', 'm', '--out', 'r.jsonl', ...extra], io);
  return { code, io };
}

describe('a judge never reached', function () {
  this.timeout(30_000);

  it('stops after a few refused calls with a hint naming the base URL, the failed rows recorded with their kind', async () => {
    const dir = workspace(40);
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
    const started = Date.now();
    const { code, io } = await run(dir, baseURL, ['--retries', '1', '--concurrency', '2']);
    assert.equal(code, EXIT_FINDINGS, io.err);
    assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
    assert.match(io.err, new RegExp(`127\\.0\\.0\\.1:\\d+.* was never reached`));
    assert.match(io.err, /--base-url.*server is running/);
    assert.doesNotMatch(io.err, /paused and tries again/, 'no outage patience for an endpoint never reached');
    const lines = readJsonl(path.join(dir, 'r.jsonl'));
    assert.ok(lines.length >= 1 && lines.length < 40, `${lines.length} line(s)`);
    for (const line of lines) assert.equal(line['quality/error_kind'], 'network');
  });

  it('keeps the outage patience when the endpoint answered some calls before it went away', async () => {
    const dir = workspace(10);
    const fake = await FakeOpenAI.start();
    try {
      fake.rules = [
        () => {
          if (fake.chats.length !== 4) return undefined;
          void fake.close(); // from now on every connection is refused
          return { drop: true };
        },
      ];
      const { code, io } = await run(dir, fake.baseURL, ['--retries', '1', '--concurrency', '1', '--max-outage', '1s']);
      assert.equal(code, EXIT_FINDINGS, io.err);
      assert.match(io.err, /paused and tries again/);
      assert.match(io.err, /answered nobody for \d+ s, the longest allowed/);
      assert.doesNotMatch(io.err, /never reached/);
    } finally {
      await fake.close();
    }
  });
});

describe('the never-reached decision', () => {
  const refused = new JudgeError('network', 'connect ECONNREFUSED 127.0.0.1:9');

  it('stops at the first call that gives up on network errors when nothing was ever answered', async () => {
    const seen: string[] = [];
    const gate = new OutageGate({ baseDelayMs: 10 }, { onUnreachable: (e) => seen.push(e.message) });
    assert.equal(await gate.shouldRetry(refused, gate.successes, {}, undefined, async () => false), false);
    assert.equal(gate.state, undefined, 'never an outage');
    assert.deepEqual(seen, [refused.message]);
    gate.dispose();
  });

  it('waits as an outage when any call was answered before', async () => {
    let unreachable = false;
    const gate = new OutageGate({ baseDelayMs: 10 }, { onUnreachable: () => (unreachable = true) });
    gate.onSuccess();
    for (let i = 0; i < 4; i++) assert.equal(await gate.shouldRetry(refused, gate.successes, {}, undefined, async () => false), true);
    assert.equal(unreachable, false);
    gate.dispose();
  });

  it('counts an HTTP error status as an answer: a server that answers 503 is there', async () => {
    let unreachable = false;
    const gate = new OutageGate({ baseDelayMs: 10 }, { onUnreachable: () => (unreachable = true) });
    const down = new JudgeError('http', 'server error (503): down', { status: 503, retryable: true });
    assert.equal(await gate.shouldRetry(down, gate.successes, {}, undefined, async () => false), true);
    for (let i = 0; i < 3; i++) assert.equal(await gate.shouldRetry(refused, gate.successes, {}, undefined, async () => false), true);
    assert.equal(unreachable, false);
    gate.dispose();
  });
});
