// When the endpoint keeps failing with transient errors across rows (a rate-limit storm, a server
// down), the run pauses as a whole instead of turning the rest of the dataset into error rows:
// calls that gave up wait here and try again together, with backoff, until the endpoint answers or
// the outage has lasted `maxOutageMs`; then the run stops as interrupted, resumable.
import { sleep } from './retry';
import type { JudgeError } from './types';

export interface OutageOptions {
  /** Consecutive calls that gave up on transient errors (with no success between) that make an outage. */
  threshold?: number;
  /** How long an outage may last before the run stops (ms). */
  maxOutageMs?: number;
  /** First wait before trying again; doubles up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export const DEFAULT_OUTAGE: Required<OutageOptions> = { threshold: 3, maxOutageMs: 10 * 60_000, baseDelayMs: 5_000, maxDelayMs: 60_000 };

export interface OutageState {
  /** When the outage began (ms since the epoch). */
  since: number;
  /** When the waiting calls try again. */
  nextTryAt: number;
  /** The last error, for the progress line. */
  lastError: string;
}

export class OutageGate {
  private readonly opts: Required<OutageOptions>;
  private consecutive = 0;
  private delay: number;
  private current: OutageState | undefined;
  private exceeded = false;

  constructor(
    options: OutageOptions = {},
    private readonly hooks: {
      /** The outage began, moved to a new try, or ended (undefined). */
      onChange?: (state: OutageState | undefined) => void;
      /** The outage lasted longer than allowed: the caller stops the run. */
      onExceeded?: (state: OutageState) => void;
      now?: () => number;
    } = {},
  ) {
    this.opts = { ...DEFAULT_OUTAGE, ...options };
    this.delay = this.opts.baseDelayMs;
  }

  get state(): OutageState | undefined {
    return this.current;
  }

  private now(): number {
    return this.hooks.now?.() ?? Date.now();
  }

  /** Any answer from the endpoint (valid or not) ends an outage. */
  onSuccess(): void {
    this.consecutive = 0;
    if (this.current) {
      this.current = undefined;
      this.delay = this.opts.baseDelayMs;
      this.hooks.onChange?.(undefined);
    }
  }

  /**
   * A call gave up after its own retries. Resolves true when the caller should try the call again
   * (an outage is on and its next try is due), false when this failure stands as the row's error.
   */
  async shouldRetry(error: JudgeError, signal?: AbortSignal): Promise<boolean> {
    if (!error.retryable || this.exceeded) return false;
    this.consecutive++;
    if (!this.current && this.consecutive < this.opts.threshold) return false;
    const now = this.now();
    if (!this.current) {
      this.current = { since: now, nextTryAt: now + this.delay, lastError: error.message };
      this.hooks.onChange?.(this.current);
    } else if (this.current.nextTryAt <= now) {
      // The last try failed too: wait longer before the next one.
      this.delay = Math.min(this.opts.maxDelayMs, this.delay * 2);
      this.current = { ...this.current, nextTryAt: now + this.delay, lastError: error.message };
      this.hooks.onChange?.(this.current);
    }
    const state = this.current;
    if (state.nextTryAt - state.since > this.opts.maxOutageMs) {
      this.exceeded = true;
      this.hooks.onExceeded?.(state);
      return false;
    }
    await sleep(Math.max(0, state.nextTryAt - now), signal);
    return true;
  }
}
