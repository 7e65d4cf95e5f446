import * as assert from 'node:assert/strict';
import { AdaptiveLimiter } from '../../src/core/judge/transport/limiter';
import { backoffDelay, callWithRetry } from '../../src/core/judge/transport/retry';
import type { RetryEvent } from '../../src/core/judge/transport/retry';
import { JudgeError } from '../../src/core/judge/transport/types';
import type { JudgeClient, JudgeRequest } from '../../src/core/judge/transport/types';

const tick = () => new Promise((r) => setImmediate(r));

describe('adaptive limiter', () => {
  it('grants up to the limit and queues the rest in order', async () => {
    const limiter = new AdaptiveLimiter(2);
    const granted: number[] = [];
    for (const i of [1, 2, 3]) void limiter.acquire().then(() => granted.push(i));
    await tick();
    assert.deepEqual(granted, [1, 2]);
    limiter.release();
    await tick();
    assert.deepEqual(granted, [1, 2, 3]);
  });

  it('halves the limit when 429s repeat, not on a single one', () => {
    let now = 0;
    const limiter = new AdaptiveLimiter(16, { now: () => now });
    limiter.onRateLimit();
    assert.equal(limiter.limit, 16);
    now = 2_000;
    limiter.onRateLimit();
    assert.equal(limiter.limit, 8);
    now = 2_500;
    limiter.onRateLimit();
    assert.equal(limiter.limit, 8, 'at most one decrease per second');
    now = 4_000;
    limiter.onRateLimit();
    assert.equal(limiter.limit, 4);
  });

  it('learns a rate from the answers in a 429 window, and a later 429 after a quiet pause slows that rate instead of halving the calls', () => {
    let now = 0;
    const limiter = new AdaptiveLimiter(16, { now: () => now });
    for (let i = 0; i < 20; i++) limiter.onSuccess();
    now = 100;
    limiter.onRateLimit(1_000);
    now = 110;
    limiter.onRateLimit(1_000);
    assert.equal(limiter.rate, 20, 'twenty answers in the second before: 20 per second');
    // The calls waited out the retry-after: nobody was answered in the window of the next 429.
    now = 3_500;
    limiter.onRateLimit(1_000);
    assert.equal(limiter.limit, 16, 'the concurrency stays');
    assert.ok(limiter.rate !== undefined && limiter.rate < 20 && limiter.rate > 19, `a little slower than 20 per second: ${limiter.rate}`);
  });

  it('grows the limit back one step after a run of successes', () => {
    let now = 0;
    const limiter = new AdaptiveLimiter(4, { now: () => now });
    limiter.onRateLimit();
    now = 1_500;
    limiter.onRateLimit();
    assert.equal(limiter.limit, 2);
    limiter.onSuccess();
    assert.equal(limiter.limit, 2);
    limiter.onSuccess();
    assert.equal(limiter.limit, 3);
    for (let i = 0; i < 10; i++) limiter.onSuccess();
    assert.equal(limiter.limit, 4, 'never above the requested concurrency');
  });

  it('holds new calls until the retry-after of a 429 has passed', async () => {
    const limiter = new AdaptiveLimiter(4);
    limiter.onRateLimit(150);
    const started = Date.now();
    await limiter.acquire();
    assert.ok(Date.now() - started >= 140, `waited ${Date.now() - started} ms`);
    limiter.dispose();
  });

  it('rejects a waiting caller as aborted when its signal fires', async () => {
    const limiter = new AdaptiveLimiter(1);
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort();
    await assert.rejects(waiting, (e: unknown) => e instanceof JudgeError && e.kind === 'aborted');
    limiter.release();
    await limiter.acquire();
    assert.equal(limiter.inFlight, 1, 'the aborted waiter took no slot');
  });
});

describe('retry backoff', () => {
  const policy = { retries: 3, baseDelayMs: 100, maxDelayMs: 1_000 };

  it('grows exponentially with jitter between half and the full step, capped', () => {
    assert.equal(backoffDelay({ ...policy, random: () => 0 }, 1), 50);
    assert.equal(backoffDelay({ ...policy, random: () => 1 }, 1), 100);
    assert.equal(backoffDelay({ ...policy, random: () => 1 }, 3), 400);
    assert.equal(backoffDelay({ ...policy, random: () => 1 }, 10), 1_000);
  });

  it("uses the server's retry-after plus at most 10% jitter", () => {
    assert.equal(backoffDelay({ ...policy, random: () => 0 }, 1, 2_000), 2_000);
    assert.equal(backoffDelay({ ...policy, random: () => 1 }, 1, 2_000), 2_200);
  });

  function scripted(errors: (JudgeError | undefined)[]): JudgeClient & { calls: number } {
    const client = {
      id: 'scripted',
      calls: 0,
      async complete(req: JudgeRequest) {
        const e = errors[client.calls++];
        if (e) throw e;
        return { text: '{}', model: req.model };
      },
    };
    return client;
  }

  it('retries retryable errors and reports each retry', async () => {
    const client = scripted([new JudgeError('network', 'reset'), new JudgeError('http', '502', { status: 502, retryable: true })]);
    const events: RetryEvent[] = [];
    const res = await callWithRetry({ model: 'm', messages: [] }, {
      client, limiter: new AdaptiveLimiter(1), policy: { ...policy, baseDelayMs: 1 }, onRetry: (e) => events.push(e),
    });
    assert.equal(res.text, '{}');
    assert.equal(client.calls, 3);
    assert.deepEqual(events.map((e) => e.retry), [1, 2]);
  });

  it('gives up after the allowed retries and says how many attempts were made', async () => {
    const client = scripted(Array.from({ length: 9 }, () => new JudgeError('timeout', 'slow')));
    await assert.rejects(
      callWithRetry({ model: 'm', messages: [] }, { client, limiter: new AdaptiveLimiter(1), policy: { ...policy, baseDelayMs: 1 } }),
      /slow \(gave up after 4 attempts\)/,
    );
    assert.equal(client.calls, 4);
  });

  it('does not retry an error the server will repeat', async () => {
    const client = scripted([new JudgeError('http', 'bad request', { status: 400, retryable: false })]);
    await assert.rejects(
      callWithRetry({ model: 'm', messages: [] }, { client, limiter: new AdaptiveLimiter(1), policy }),
      /^JudgeError: bad request$/,
    );
    assert.equal(client.calls, 1);
  });
});
