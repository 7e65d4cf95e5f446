// When the endpoint keeps failing with transient errors (a rate-limit storm, a server down), the
// run pauses as a whole instead of turning the rest of the dataset into error rows. An outage is
// two or more calls giving up after their retries with no answer to anyone in between: they wait
// here and try again with backoff until the endpoint answers, or until the outage has lasted
// `maxOutageMs`; then the run stops as interrupted, resumable. A call that keeps failing while
// others get answers (or, alone, after one more try) is that request's own problem: the row's error.
import { sleep } from './retry';
import type { JudgeError } from './types';

export interface OutageOptions {
  /** How long an outage may last before the run stops (ms). */
  maxOutageMs?: number;
  /** First wait before trying again; doubles up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export const DEFAULT_OUTAGE: Required<OutageOptions> = { maxOutageMs: 10 * 60_000, baseDelayMs: 5_000, maxDelayMs: 60_000 };

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
  /** Answers the endpoint gave during the run; a caller compares it before and after its call. */
  successes = 0;
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
    this.successes++;
    this.failing.clear();
    if (this.current) {
      this.current = undefined;
      this.delay = this.opts.baseDelayMs;
      this.hooks.onChange?.(undefined);
    }
  }

  /** Calls that gave up since the last answer. */
  private readonly failing = new Set<object>();

  /**
   * A call gave up after its own retries. Resolves true when the caller should try the call again
   * (the endpoint answered nobody since `mark`, the caller's reading of `successes` when its last
   * attempt began, and the next try is due); false when this failure stands as the row's error.
   * `call` identifies the call across its tries.
   */
  async shouldRetry(error: JudgeError, mark: number, call: { secondChance?: boolean }, signal?: AbortSignal): Promise<boolean> {
    if (!error.retryable || this.exceeded || this.successes !== mark) return false;
    this.failing.add(call);
    if (!this.current && this.failing.size < 2) {
      // Alone so far: one more try after a pause tells a passing blip from this request's own fault.
      if (call.secondChance) return false;
      call.secondChance = true;
      await sleep(this.opts.baseDelayMs, signal);
      return true;
    }
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
