// The gate every judge call passes: a concurrency limit, and a request rate learned from the
// endpoint so a steady rate limit costs almost no 429s. Headers are a hint, 429s the truth.
// - The rate first comes from the `x-ratelimit-*-requests` headers OpenAI and Azure send on every
//   reply (a token bucket: `limit - remaining` requests refill in `reset`). Other servers send the
//   same headers meaning something else (a rolling window's reset is when its oldest call leaves, a
//   fixed window's when the window ends): once a call sent on the headers' word is refused, they
//   are ignored and the rate is learned from 429s as below.
// - Without (trusted) headers, the first 429 holds new calls for its `retry-after`, and the limit
//   is the calls the server let through among those sent in the `retry-after` window before it
//   (counted by when they were sent, once the calls then in flight have settled: their answers can
//   come after the 429). Calls then go at 98 % of it, never more than that many in any such window.
//   A later 429 in a window that was full is timing (calls that left late arrived together): back
//   to 98 %, the limit stays. One with the window short of full, or soon after the last change,
//   lowers the limit to the calls let through (3 % or 5 % at least), once per window.
// - While calls queue and no 429 comes, a measured rate is probed upwards slowly (1 %/s), but for
//   30 s not above 99 % of the limit: each probe past an enforced limit costs a 429.
// - Calls are spaced to that rate; a retried call waits in a queue served before fresh calls.
// - A 429 that teaches no rate (nobody was answered) pauses new calls for its retry-after and,
//   when repeated, halves the concurrency (at most once a second); successes grow it back (AIMD).
// - No limit met, no rate: calls go as fast as the concurrency allows.
import { JudgeError } from './types';
import type { RateLimitInfo } from './types';

export type { RateLimitInfo } from './types';

export interface LimiterOptions {
  /** Two 429s closer than this count as "repeated" and lower the concurrency. */
  repeatWindowMs?: number;
  /** Longest pause a retry-after may impose on new calls. */
  maxPauseMs?: number;
  now?: () => number;
}

interface Waiter {
  grant: (ticket: number) => void;
  reject: (e: Error) => void;
  signal: AbortSignal | undefined;
}

/** Answers remembered to measure the accepted rate when a 429 comes without headers. */
const ANSWER_LOG = 1024;
/** A call still running this long after a 429 was let through: a refusal comes back at once. */
const SETTLE_MS = 1_000;
/** A rate learned from 429s starts this far below the limit they showed, and probes up to PROBE_CAP of it. */
const MARGIN = 0.98;
const PROBE_CAP = 0.99;
/**
 * Tokens a learned rate may bank: a timer that fires late, or a busy event loop, lets the next
 * calls go a little sooner, so the calls keep the rate on average instead of losing every lag (up
 * to 7 % of a 20/s limit). The learned window (`window`) keeps such catch-ups under the limit.
 */
const PACED_CAPACITY = 2;
/** A 429 when the calls sent in the window came this close to the learned count is timing, not a lower limit. */
const AT_CAP = 0.85;
/** How long a refused rate caps the upward probe. */
const CEILING_MEMORY_MS = 30_000;

/** The accepted rate being measured after the first 429 no rate explains. */
interface Measurement {
  at: number;
  windowMs: number;
  retryAfterMs: number | undefined;
  /** Calls sent in the window before the 429 and not settled yet. */
  waitFor: Set<number>;
  /** A second call was refused within the window: the limit is the endpoint's, not one request's. */
  confirmed: boolean;
}

export class AdaptiveLimiter {
  private active = 0;
  private current: number;
  private successes = 0;
  private last429 = -Infinity;
  private lastDecrease = -Infinity;
  private pausedUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private readonly urgent: Waiter[] = [];
  private readonly fresh: Waiter[] = [];
  private readonly repeatWindowMs: number;
  private readonly maxPauseMs: number;
  private readonly now: () => number;
  /** Answers (2xx) seen so far: a caller compares it before and after its own attempt. */
  answered = 0;
  /** Spacing between calls the server's request headers imply (ms per request). */
  private headerMs: number | undefined;
  /** Spacing measured from 429s the headers do not explain (no headers, or another limit such as tokens). */
  private measuredMs: number | undefined;
  /** The local token bucket mirroring the server's. */
  private tokens = 0;
  private capacity = 1;
  private refilledAt = 0;
  private lastRaise = 0;
  private seq = 0;
  /** Calls in flight (ticket → when it was sent), to tell which calls a header reading does not count yet. */
  private readonly flying = new Map<number, number>();
  private newestInfo = -1;
  /** The last ticket granted when the headers first set the pace; calls after it were sent on their word. */
  private firstInfo = -1;
  /** False once a call the headers let through was refused: their reset means something else here. */
  private trustHeaders = true;
  private readonly answerLog = new Float64Array(ANSWER_LOG);
  private answerAt = 0;
  private lastFreshRefusal = -Infinity;
  private pending: Measurement | undefined;
  /** Spacing at the last 429 a measured rate met, while it caps the probe. */
  private ceilingMs: number | undefined;
  /** The limit learned from 429s as a rolling window, and the calls sent since it was learned (oldest at `sentHead`). */
  private window: { ms: number; count: number } | undefined;
  private readonly sentLog: number[] = [];
  private sentHead = 0;

  constructor(
    readonly max: number,
    options: LimiterOptions = {},
  ) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`concurrency must be a positive integer, got ${max}`);
    this.current = max;
    this.repeatWindowMs = options.repeatWindowMs ?? 30_000;
    this.maxPauseMs = options.maxPauseMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** The concurrency in force now (lower than `max` while slowed down). */
  get limit(): number {
    return this.current;
  }

  get inFlight(): number {
    return this.active;
  }

  /** The learned request rate (per second), when the endpoint has shown one. */
  get rate(): number | undefined {
    const ms = this.intervalMs;
    return ms === undefined ? undefined : 1000 / ms;
  }

  /** The spacing in force: the slower of what the headers say and what 429s taught. */
  private get intervalMs(): number | undefined {
    if (this.headerMs === undefined) return this.measuredMs;
    return this.measuredMs === undefined ? this.headerMs : Math.max(this.headerMs, this.measuredMs);
  }

  /**
   * Waits for a slot; resolves with the call's ticket (pass it back to `release` and the `on*`
   * hooks). `retried`: served before every fresh call. Rejects with an `aborted` JudgeError when
   * the signal fires first.
   */
  acquire(signal?: AbortSignal, retried = false): Promise<number> {
    if (signal?.aborted) return Promise.reject(new JudgeError('aborted', 'the request was cancelled'));
    // A free slot and nobody waiting: granted at once, without a waiter or an abort listener.
    const now = this.now();
    if (this.urgent.length === 0 && this.fresh.length === 0 && this.ready(now)) return Promise.resolve(this.take(now));
    return new Promise((resolve, reject) => {
      // One abort listener per signal, not per waiter: adding a listener walks the signal's list.
      if (signal && !this.watched.has(signal)) this.watch(signal);
      (retried ? this.urgent : this.fresh).push({ grant: resolve, reject, signal });
      this.pump();
    });
  }

  private readonly watched = new WeakSet<AbortSignal>();

  private watch(signal: AbortSignal): void {
    this.watched.add(signal);
    signal.addEventListener(
      'abort',
      () => {
        for (const queue of [this.urgent, this.fresh]) {
          for (let i = queue.length - 1; i >= 0; i--) {
            const w = queue[i] as Waiter;
            if (w.signal !== signal) continue;
            queue.splice(i, 1);
            w.reject(new JudgeError('aborted', 'the request was cancelled'));
          }
        }
      },
      { once: true },
    );
  }

  release(ticket?: number): void {
    this.active--;
    if (ticket !== undefined) {
      this.flying.delete(ticket);
      this.pending?.waitFor.delete(ticket);
    }
    this.pump();
  }

  /** An answer; `info` is the reply's rate-limit headers. */
  onSuccess(info?: RateLimitInfo, ticket?: number): void {
    const now = this.now();
    this.answered++;
    // When the call was sent: a window limit counts arrivals, and the answer can come much later.
    this.answerLog[this.answerAt++ % ANSWER_LOG] = (ticket !== undefined ? this.flying.get(ticket) : undefined) ?? now;
    if (info) this.learn(info, ticket, now);
    if (this.measuredMs !== undefined && this.waiting() && now - this.last429 >= 1_000 && now - this.lastRaise >= 1_000) {
      // Calls queue for the rate and no 429 came for a second: try 1 % faster, up to 99 % of a rate refused lately.
      const capMs = this.ceilingMs !== undefined && now - this.last429 < CEILING_MEMORY_MS ? this.ceilingMs / PROBE_CAP : 0;
      this.measuredMs = Math.min(this.measuredMs, Math.max(this.measuredMs / 1.01, capMs));
      this.lastRaise = now;
    }
    if (this.current < this.max && ++this.successes >= this.current) {
      this.successes = 0;
      this.current++;
    }
    this.pump();
  }

  /**
   * A 429. `fresh`: the call's first attempt (a retried call refused again says nothing new about
   * the endpoint's limit: the server may refuse one request while it answers the others).
   */
  onRateLimit(retryAfterMs?: number, info?: RateLimitInfo, ticket?: number, fresh = true): void {
    const now = this.now();
    this.successes = 0;
    const repeated = now - this.last429 <= this.repeatWindowMs;
    this.last429 = now;
    // Out of requests before the headers were read: they say when more come. A call the headers
    // let through refused all the same: they mean something else (a window), so 429s teach the rate.
    if (info?.remaining === 0 && fresh && this.headersMisled(ticket)) this.distrustHeaders(now);
    else if (info?.remaining === 0 && this.learn(info, ticket, now)) return this.pump();
    if (!fresh) return this.pump();
    if (this.measure(retryAfterMs, now, ticket, info?.remaining === 0)) return this.pump();
    // Nothing to learn a rate from: pause new calls and, when 429s repeat, fewer calls at once.
    if (repeated) this.halve(now);
    this.pause(retryAfterMs, now);
    this.pump();
  }

  /** Clears a pending timer (call when the run ends). */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  /** Whether a refused call was sent after a header reading had set the pace: the headers' model is not the server's. */
  private headersMisled(ticket: number | undefined): boolean {
    return this.trustHeaders && this.headerMs !== undefined && ticket !== undefined && this.firstInfo >= 0 && ticket > this.firstInfo;
  }

  /** From now on the headers are ignored and the rate is the one the 429s teach (see `measure`). */
  private distrustHeaders(now: number): void {
    this.trustHeaders = false;
    this.headerMs = undefined;
    this.capacity = PACED_CAPACITY;
    this.tokens = Math.min(this.tokens, 0);
    this.refilledAt = now;
  }

  /** The server's numbers: a bucket of `limit` refilled at (limit − remaining) per `reset`. True when they gave a rate. */
  private learn(info: RateLimitInfo, ticket: number | undefined, now: number): boolean {
    const { limit, remaining, resetMs } = info;
    if (!this.trustHeaders || limit === undefined || remaining === undefined || limit <= 0 || remaining < 0) return false;
    if (this.firstInfo < 0 && ticket !== undefined) this.firstInfo = this.seq;
    if (ticket !== undefined) {
      if (ticket < this.newestInfo) return this.headerMs !== undefined; // older than a reading already applied
      this.newestInfo = ticket;
    }
    if (resetMs !== undefined && resetMs > 0 && remaining < limit) this.headerMs = resetMs / (limit - remaining);
    if (this.headerMs === undefined) return false;
    // Calls sent after this one are not counted in `remaining` yet; a small reserve absorbs timing jitter.
    let later = 0;
    if (ticket !== undefined) for (const t of this.flying.keys()) if (t > ticket) later++;
    const reserve = Math.max(1, Math.round(limit * 0.05));
    this.capacity = Math.max(1, limit - reserve);
    this.tokens = Math.min(this.capacity, remaining - later - reserve);
    this.refilledAt = now;
    return true;
  }

  /**
   * A 429 the headers do not explain; true when a rate accounts for it. With no rate yet, new calls
   * wait out the retry-after and a measurement starts (see `finish`); with one, the rate slows,
   * once per window.
   */
  private measure(retryAfterMs: number | undefined, now: number, ticket: number | undefined, spent = false): boolean {
    const windowMs = Math.min(60_000, Math.max(1_000, retryAfterMs ?? 1_000));
    // `spent`: the headers say the endpoint has no requests left, so the limit is not one request's.
    const repeated = spent || now - this.lastFreshRefusal <= windowMs;
    this.lastFreshRefusal = now;
    if (this.intervalMs === undefined) return this.startMeasuring(windowMs, retryAfterMs, now, ticket, repeated);
    // The server counted the window up to when the refused call was sent, not to when its 429 came back.
    const sentAt = (ticket !== undefined ? this.flying.get(ticket) : undefined) ?? now;
    const n = this.acceptedIn(sentAt, windowMs);
    // Nobody answered in the window (the calls were waiting out a pause): with a rate already
    // learned, this refusal is the rate's to account for, not a reason to halve the concurrency.
    if (n === 0 && this.measuredMs === undefined) return false;
    // Once per window, the measured rate, and always a little slower than the one just refused.
    if (this.measuredMs !== undefined && now - this.lastDecrease < windowMs) return true;
    const refused = this.intervalMs;
    // Paced for a whole window since the last pause: the calls it let through count the limit (a
    // first count across a fixed window's edge can be twice the limit; a refusal at the limit by
    // a timing hair must not ratchet it down). Else the refused rate is the limit.
    const paced = n > 0 && sentAt - this.pausedUntil >= windowMs;
    // Refused again within a window and a half of the last change: the limit is lower (a first
    // count across a fixed window's edge), so it comes down to the calls let through, 5 % at least.
    const again = now - this.lastDecrease < 1.5 * windowMs && this.ceilingMs !== undefined;
    // Else, the window learned was (nearly) full: calls granted before a busy moment of the event
    // loop left late and reached the server together, so it counted more than we did. The limit
    // is right; only the probe above MARGIN is undone.
    const atCap = paced && !again && this.window !== undefined && n + 1 >= this.window.count * AT_CAP && this.ceilingMs !== undefined;
    if (again && paced) this.ceilingMs = Math.max(windowMs / n, (this.ceilingMs as number) * 1.05);
    else if (!atCap) this.ceilingMs = paced ? Math.min(refused * 2, Math.max(windowMs / n, refused / 1.03)) : refused;
    this.measuredMs = spacing((this.ceilingMs as number) / MARGIN, retryAfterMs);
    if (!atCap) this.learnWindow(windowMs);
    this.lastDecrease = now;
    if (this.headerMs === undefined) this.capacity = PACED_CAPACITY;
    this.tokens = Math.min(this.tokens, 0);
    this.refilledAt = now;
    return true;
  }

  /** The first limit met without headers: the window is spent, so new calls wait out the retry-after while the calls in flight settle. */
  private startMeasuring(windowMs: number, retryAfterMs: number | undefined, now: number, ticket: number | undefined, repeated: boolean): boolean {
    if (this.pending) {
      this.pending.confirmed = true;
      this.pause(retryAfterMs, now);
      return true;
    }
    const waitFor = new Set<number>();
    for (const [t, sent] of this.flying) if (t !== ticket && sent > now - windowMs) waitFor.add(t);
    // Nobody answered or running since the window began: nothing to measure a rate from.
    if (waitFor.size === 0 && this.acceptedIn(now, windowMs) === 0) return false;
    this.pending = { at: now, windowMs, retryAfterMs, waitFor, confirmed: repeated };
    this.pause(retryAfterMs, now);
    return true;
  }

  /**
   * Ends the measurement once the calls it waits for have settled (or ran past SETTLE_MS, so were
   * let through): the accepted rate is the calls answered among those sent in the window. Learned
   * only when two different calls were refused within it (one refusal can be that request's own).
   */
  private finish(now: number): void {
    const m = this.pending as Measurement;
    this.pending = undefined;
    if (!m.confirmed) return;
    const n = this.acceptedIn(m.at, m.windowMs) + m.waitFor.size;
    // Every call in the window was refused: no rate to learn, so fewer calls at once.
    if (n === 0) return this.halve(now);
    this.measuredMs = spacing(m.windowMs / n / MARGIN, m.retryAfterMs);
    this.ceilingMs = this.measuredMs * MARGIN;
    this.learnWindow(m.windowMs);
    this.lastDecrease = m.at;
    this.capacity = PACED_CAPACITY;
    this.tokens = Math.min(this.tokens, 0);
    this.refilledAt = now;
  }

  /** Halves the concurrency, at most once a second (AIMD; successes grow it back). */
  private halve(now: number): void {
    if (now - this.lastDecrease < 1_000 || this.current <= 1) return;
    this.current = Math.max(1, Math.floor(this.current / 2));
    this.lastDecrease = now;
  }

  /** Answered calls sent in the `windowMs` up to `at`. */
  private acceptedIn(at: number, windowMs: number): number {
    let n = 0;
    for (let i = 0; i < ANSWER_LOG && i < this.answerAt; i++) {
      const sent = this.answerLog[i] as number;
      if (sent > at - windowMs && sent <= at) n++;
    }
    return n;
  }

  private pause(retryAfterMs: number | undefined, now: number): void {
    if (retryAfterMs !== undefined && retryAfterMs > 0) {
      this.pausedUntil = Math.max(this.pausedUntil, now + Math.min(retryAfterMs, this.maxPauseMs));
    }
  }

  private waiting(): boolean {
    return this.urgent.length > 0 || this.fresh.length > 0;
  }

  /** Whether a call may start now (refills the bucket first). */
  private ready(now: number): boolean {
    if (this.active >= this.current || this.pausedUntil > now) return false;
    const interval = this.intervalMs;
    if (interval === undefined) return true;
    this.tokens = Math.min(this.capacity, this.tokens + (now - this.refilledAt) / interval);
    this.refilledAt = now;
    return this.tokens >= 1 && this.windowFreeAt(now) <= now;
  }

  /** When the learned window has room for one more call (now or earlier when it has room already). */
  private windowFreeAt(now: number): number {
    const w = this.window;
    if (w === undefined) return 0;
    const log = this.sentLog;
    while (this.sentHead < log.length && (log[this.sentHead] as number) <= now - w.ms) this.sentHead++;
    if (this.sentHead > 256 && this.sentHead * 2 > log.length) {
      log.splice(0, this.sentHead);
      this.sentHead = 0;
    }
    return log.length - this.sentHead < w.count ? 0 : (log[this.sentHead] as number) + w.ms;
  }

  /** The limit 429s taught, as at most `count` calls in any `ms`: a rolling window holds under every kind of limit. */
  private learnWindow(ms: number): void {
    if (this.ceilingMs === undefined) return;
    // A little longer than the server's: it counts arrivals, a millisecond or two after our sends.
    this.window = { ms: ms * 1.01, count: Math.max(1, Math.floor(ms / this.ceilingMs + 1e-6)) };
  }

  private take(now: number): number {
    this.active++;
    if (this.intervalMs !== undefined) this.tokens -= 1;
    if (this.window) this.sentLog.push(now);
    const ticket = ++this.seq;
    this.flying.set(ticket, now);
    return ticket;
  }

  private pump(): void {
    const now = this.now();
    if (this.pending && (this.pending.waitFor.size === 0 || now - this.pending.at >= SETTLE_MS)) this.finish(now);
    while (this.waiting() && this.ready(now)) {
      const waiter = (this.urgent.length > 0 ? this.urgent : this.fresh).shift() as Waiter;
      waiter.grant(this.take(now));
    }
    if (!this.waiting() || this.active >= this.current) return;
    // Blocked by a pause or the rate: wake when the next call may start.
    const interval = this.intervalMs;
    const at = Math.max(this.pausedUntil, interval === undefined ? 0 : now + (1 - this.tokens) * interval, this.windowFreeAt(now));
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.pump();
    }, Math.max(1, Math.ceil(at - now)));
  }
}

/**
 * A measured spacing, never longer than the server's own `retry-after`: it said when a call may
 * come again. (A storm that ends inside a window counts one answer in a second; without this, a
 * `retry-after` of 5 ms would become one call a second.)
 */
function spacing(ms: number, retryAfterMs: number | undefined): number {
  return retryAfterMs !== undefined && retryAfterMs > 0 ? Math.min(ms, retryAfterMs) : ms;
}
