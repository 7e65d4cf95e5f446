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

  it('holds new calls at the first 429 without headers, and counts the calls let through by when they were sent, once those in flight have settled', async () => {
    let now = 0;
    const limiter = new AdaptiveLimiter(32, { now: () => now });
    const tickets: number[] = [];
    for (let i = 0; i < 22; i++) tickets.push(await limiter.acquire());
    // Twelve of the twenty calls the server let through have answered when the first refusals come back.
    for (const t of tickets.slice(0, 12)) {
      limiter.onSuccess(undefined, t);
      limiter.release(t);
    }
    now = 30;
    limiter.onRateLimit(1_000, undefined, tickets[20], true);
    limiter.release(tickets[20]);
    let granted = false;
    void limiter.acquire().then(() => (granted = true));
    await tick();
    assert.equal(granted, false, 'a fresh call waits out the retry-after');
    limiter.onRateLimit(1_000, undefined, tickets[21], true);
    limiter.release(tickets[21]);
    assert.equal(limiter.rate, undefined, 'eight calls sent before the refusals are still running');
    now = 40;
    for (const t of tickets.slice(12, 20)) {
      limiter.onSuccess(undefined, t);
      limiter.release(t);
    }
    assert.equal(limiter.rate, 20, 'all twenty calls let through count, not the twelve answered at the 429');
    limiter.dispose();
  });

  it('never spaces calls further apart than the server\'s retry-after', async () => {
    // A storm that ends inside the window: one call let through in a second, but retry-after says 5 ms.
    let now = 0;
    const limiter = new AdaptiveLimiter(4, { now: () => now });
    const [a, b, c] = [await limiter.acquire(), await limiter.acquire(), await limiter.acquire()];
    limiter.onRateLimit(5, undefined, a, true);
    limiter.release(a);
    limiter.onRateLimit(5, undefined, b, true);
    limiter.release(b);
    now = 3;
    limiter.onSuccess(undefined, c);
    limiter.release(c);
    assert.equal(limiter.rate, 200, 'one call per 5 ms, not one per second');
    limiter.dispose();
  });

  it('learns no rate from a single 429 (it can be that request\'s own), but still waits out its retry-after', async () => {
    let now = 0;
    const limiter = new AdaptiveLimiter(4, { now: () => now });
    const a = await limiter.acquire();
    const b = await limiter.acquire();
    limiter.onSuccess(undefined, a);
    limiter.release(a);
    now = 10;
    limiter.onRateLimit(500, undefined, b, true);
    limiter.release(b);
    assert.equal(limiter.rate, undefined);
    let granted = false;
    void limiter.acquire().then(() => (granted = true));
    await tick();
    assert.equal(granted, false);
    limiter.dispose();
  });

  it('probes back up to 99 % of a rate the server refused and holds there for 30 s before probing past it', async () => {
    let now = 0;
    const limiter = new AdaptiveLimiter(1, { now: () => now });
    for (let i = 0; i < 20; i++) limiter.onSuccess();
    now = 100;
    limiter.onRateLimit(1_000);
    now = 110;
    limiter.onRateLimit(1_000);
    now = 3_500;
    limiter.onRateLimit(1_000);
    assert.ok((limiter.rate as number) < 19.5, `3 % slower than the 20/s refused: ${limiter.rate}`);
    // After the pause, a call runs and another waits for the rate: the probe may raise it.
    now = 4_550;
    await limiter.acquire();
    void limiter.acquire().catch(() => undefined);
    const rates: number[] = [];
    for (now = 4_600; now < 40_000; now += 1_100) {
      limiter.onSuccess();
      rates.push(limiter.rate as number);
    }
    const before = rates.slice(0, 26);
    assert.ok(Math.max(...before) <= 19.8 + 1e-9, `held at 99 % of 20/s within 30 s of the 429: ${Math.max(...before)}`);
    assert.ok(Math.abs((before.at(-1) as number) - 19.8) < 1e-9, `and reached it: ${before.at(-1)}`);
    assert.ok((rates.at(-1) as number) > 20, `then probes past it: ${rates.at(-1)}`);
    limiter.dispose();
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
