// Concurrency gate for judge calls that slows down when the endpoint keeps answering 429:
// repeated rate limits halve the limit (at most once a second), `retry-after` pauses new calls,
// and a run of successes grows the limit back one step at a time (AIMD).
import { JudgeError } from './types';

export interface LimiterOptions {
  /** Two 429s closer than this count as "repeated" and lower the limit. */
  repeatWindowMs?: number;
  /** Longest pause a retry-after may impose on new calls. */
  maxPauseMs?: number;
  now?: () => number;
}

export class AdaptiveLimiter {
  private active = 0;
  private current: number;
  private successes = 0;
  private last429 = -Infinity;
  private lastDecrease = -Infinity;
  private pausedUntil = 0;
  private pauseTimer: NodeJS.Timeout | undefined;
  private readonly waiters: Array<{ grant: () => void }> = [];
  private readonly repeatWindowMs: number;
  private readonly maxPauseMs: number;
  private readonly now: () => number;

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

  /** The limit in force now (lower than `max` while slowed down). */
  get limit(): number {
    return this.current;
  }

  get inFlight(): number {
    return this.active;
  }

  /** Waits for a slot; rejects with an `aborted` JudgeError when the signal fires first. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new JudgeError('aborted', 'the request was cancelled'));
    // A free slot and nobody waiting: granted at once, without a waiter or an abort listener.
    if (this.waiters.length === 0 && this.active < this.current && this.pausedUntil <= this.now()) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(new JudgeError('aborted', 'the request was cancelled'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.pump();
    });
  }

  release(): void {
    this.active--;
    this.pump();
  }

  onSuccess(): void {
    if (this.current >= this.max) return;
    if (++this.successes >= this.current) {
      this.successes = 0;
      this.current++;
      this.pump();
    }
  }

  onRateLimit(retryAfterMs?: number): void {
    const now = this.now();
    this.successes = 0;
    if (now - this.last429 <= this.repeatWindowMs && now - this.lastDecrease >= 1_000 && this.current > 1) {
      this.current = Math.max(1, Math.floor(this.current / 2));
      this.lastDecrease = now;
    }
    this.last429 = now;
    if (retryAfterMs !== undefined && retryAfterMs > 0) {
      this.pausedUntil = Math.max(this.pausedUntil, now + Math.min(retryAfterMs, this.maxPauseMs));
    }
  }

  /** Clears a pending pause timer (call when the run ends). */
  dispose(): void {
    if (this.pauseTimer) clearTimeout(this.pauseTimer);
    this.pauseTimer = undefined;
  }

  private pump(): void {
    const wait = this.pausedUntil - this.now();
    if (wait > 0) {
      if (!this.pauseTimer && this.waiters.length > 0) {
        this.pauseTimer = setTimeout(() => {
          this.pauseTimer = undefined;
          this.pump();
        }, wait);
      }
      return;
    }
    while (this.active < this.current && this.waiters.length > 0) {
      this.active++;
      this.waiters.shift()?.grant();
    }
  }
}
