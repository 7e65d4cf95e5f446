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
    assert.ok(Math.abs((limiter.rate as number) - 19.6) < 1e-9, `twenty answers in the second before: 98 % of 20 per second (${limiter.rate})`);
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
    assert.ok(Math.abs(Number(limiter.rate) - 19.6) < 1e-9, `all twenty calls let through count, not the twelve answered at the 429 (${limiter.rate})`);
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

  it('probes back up to 99 % of the limit a 429 showed and holds there for 30 s before probing past it', async () => {
    let now = 0;
    const limiter = new AdaptiveLimiter(1, { now: () => now });
    for (let i = 0; i < 20; i++) limiter.onSuccess();
    now = 100;
    limiter.onRateLimit(1_000);
    now = 110;
    limiter.onRateLimit(1_000);
    now = 3_500;
    limiter.onRateLimit(1_000);
    // Learned at 98 % of 20/s; refused again at that rate, which becomes the limit.
    assert.ok((limiter.rate as number) < 19.3, `2 % slower than the 19.6/s refused: ${limiter.rate}`);
    const cap = 0.99 * 19.6;
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
    assert.ok(Math.max(...before) <= cap + 1e-9, `held at 99 % of 19.6/s within 30 s of the 429: ${Math.max(...before)}`);
    assert.ok(Math.abs((before.at(-1) as number) - cap) < 1e-9, `and reached it: ${before.at(-1)}`);
    assert.ok((rates.at(-1) as number) > 19.6, `then probes past it: ${rates.at(-1)}`);
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

  /** A call granted now, or undefined (nothing left waiting) when the limiter would make it wait. */
  async function tryAcquire(limiter: AdaptiveLimiter): Promise<number | undefined> {
    const controller = new AbortController();
    const before = limiter.inFlight;
    const granted = limiter.acquire(controller.signal).catch(() => undefined);
    if (limiter.inFlight === before) controller.abort();
    return granted;
  }

  /** The first call the limiter grants, moving the clock on a millisecond at a time (at most 2 s). */
  async function nextCall(limiter: AdaptiveLimiter, clock: { now: number }): Promise<number> {
    for (const end = clock.now + 2_000; clock.now < end; clock.now += 1) {
      const t = await tryAcquire(limiter);
      if (t !== undefined) return t;
    }
    throw new Error('no call granted in 2 s');
  }

  /** Twenty calls answered 10 ms apart, as a rolling 1 s window of 20 reports them: reset is when the oldest call leaves. */
  async function fillRollingWindow(limiter: AdaptiveLimiter, clock: { now: number }): Promise<void> {
    const start = clock.now;
    for (let i = 0; i < 20; i++) {
      let t = await tryAcquire(limiter);
      for (; t === undefined && clock.now < start + 500; clock.now += 1) t = await tryAcquire(limiter);
      assert.ok(t !== undefined, `call ${i + 1} of the window goes within 500 ms`);
      limiter.onSuccess({ limit: 20, remaining: 19 - i, resetMs: 1000 - (clock.now - start) }, t);
      limiter.release(t);
      clock.now += 10;
    }
  }

  it('ignores headers whose reset is not OpenAI\'s once a call they let through is refused, and learns the limit from the 429s', async () => {
    const clock = { now: 0 };
    const limiter = new AdaptiveLimiter(16, { now: () => clock.now });
    await fillRollingWindow(limiter, clock);
    // Read as OpenAI's bucket, "0 left, full in 810 ms" lets a call go 80 ms later; the window refuses it.
    const refused = await nextCall(limiter, clock);
    assert.ok(clock.now < 1_000, `the headers let a call go before the oldest left the window (${clock.now} ms)`);
    limiter.onRateLimit(1_000, { limit: 20, remaining: 0, resetMs: 700 }, refused, true);
    limiter.release(refused);
    assert.ok(Math.abs((limiter.rate as number) - 19.6) < 1e-9, `98 % of the 20 calls let through in the second: ${limiter.rate}`);
    limiter.onSuccess({ limit: 20, remaining: 0, resetMs: 5 }, refused);
    assert.ok(Math.abs((limiter.rate as number) - 19.6) < 1e-9, `a later reading ("full in 5 ms") no longer sets the pace: ${limiter.rate}`);
    limiter.dispose();
  });

  it('keeps OpenAI\'s headers when the refused call was sent before any of them had been read', async () => {
    const clock = { now: 0 };
    const limiter = new AdaptiveLimiter(16, { now: () => clock.now });
    const early: number[] = [];
    for (let i = 0; i < 4; i++) early.push((await tryAcquire(limiter)) as number);
    limiter.onSuccess({ limit: 20, remaining: 10, resetMs: 500 }, early[0]);
    limiter.release(early[0]);
    // Sent with the first call, before the server had said anything: the headers did not let it through.
    limiter.onRateLimit(1_000, { limit: 20, remaining: 0, resetMs: 1_000 }, early[1], true);
    limiter.release(early[1]);
    assert.equal(limiter.rate, 20, 'the bucket refills 20 requests in 1 s');
    limiter.dispose();
  });

  it('never sends more calls in a window than the limit learned, even with tokens banked over a busy moment, and keeps the rate', async () => {
    const clock = { now: 0 };
    const limiter = new AdaptiveLimiter(16, { now: () => clock.now });
    await fillRollingWindow(limiter, clock);
    const refused = await nextCall(limiter, clock);
    limiter.onRateLimit(1_000, { limit: 20, remaining: 0, resetMs: 700 }, refused, true);
    limiter.release(refused);
    const sent: number[] = [];
    for (clock.now = 1_300; clock.now < 5_300; clock.now += 1) {
      // The event loop was busy for 150 ms twice: the calls due then go when it is free.
      if ((clock.now >= 2_000 && clock.now < 2_150) || (clock.now >= 4_000 && clock.now < 4_150)) continue;
      const t = await tryAcquire(limiter);
      if (t === undefined) continue;
      sent.push(clock.now);
      limiter.onSuccess(undefined, t);
      limiter.release(t);
    }
    const most = Math.max(...sent.map((at) => sent.filter((x) => x > at - 1_000 && x <= at).length));
    assert.ok(most <= 20, `at most 20 calls in any second: ${most}`);
    assert.ok(sent.length >= 0.95 * 4 * 20, `the rate kept over the busy moments: ${sent.length} calls in 4 s`);
    limiter.dispose();
  });

  it('takes a 429 in a full window for timing and keeps the limit, and one in a window well short of it as a lower limit', async () => {
    const clock = { now: 0 };
    const limiter = new AdaptiveLimiter(16, { now: () => clock.now });
    await fillRollingWindow(limiter, clock);
    const first = await nextCall(limiter, clock);
    limiter.onRateLimit(1_000, { limit: 20, remaining: 0, resetMs: 700 }, first, true);
    limiter.release(first);
    const pace = async (until: number) => {
      for (; clock.now < until; clock.now += 1) {
        const t = await tryAcquire(limiter);
        if (t === undefined) continue;
        limiter.onSuccess(undefined, t);
        limiter.release(t);
      }
    };
    await pace(4_000);
    const next = () => nextCall(limiter, clock);
    const full = await next();
    limiter.onRateLimit(1_000, { limit: 20, remaining: 0, resetMs: 3 }, full, true);
    limiter.release(full);
    assert.ok(Math.abs((limiter.rate as number) - 19.6) < 1e-9, `refused in a full window: the limit stays (${limiter.rate})`);
    // Later, the server lowers its limit: ten calls in a second get through, the next is refused.
    for (clock.now = 8_000; clock.now < 9_000; clock.now += 100) {
      const t = await tryAcquire(limiter);
      assert.ok(t !== undefined, 'one call every 100 ms is within the rate');
      limiter.onSuccess(undefined, t);
      limiter.release(t);
    }
    const short = await next();
    limiter.onRateLimit(1_000, { limit: 20, remaining: 0, resetMs: 3 }, short, true);
    limiter.release(short);
    assert.ok((limiter.rate as number) < 11, `about 10 calls a second now: ${limiter.rate}`);
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
