// When the endpoint keeps failing with transient errors (a rate-limit storm, a server down), the
// run pauses as a whole instead of turning the rest of the dataset into error rows. A call that
// gave up after its retries is the row's own error when the endpoint answered anyone during its
// last attempt, or when the endpoint (in a panel, any member's) answers a tiny probe request now (and was not in an outage,
// which that answer ends: then the call tries again): a prompt that always gets a 500, or always
// hangs, fails its row and never holds the run open, even when it is the only row left. Only when nobody is answered, the probe included, is it an outage: the failing calls wait
// and try again with backoff until the endpoint answers, or until the outage has lasted
// `maxOutageMs` (to the second); then the run stops as interrupted, resumable. A call that gave up
// on 429s while nobody was answered gets one more try when the probe is answered: the limit lifted.
import { sleep } from './retry';
import type { JudgeError } from './types';

export interface OutageOptions {
  /** How long an outage may last before the run stops (ms). */
  maxOutageMs?: number;
  /** First wait before trying again; doubles up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /**
   * Calls that may give up on network errors after their own retries, their probe failing too, while
   * no request of the run has ever had an HTTP answer, before the run stops as unreachable (a wrong
   * base URL, a server not started): a judge never reached gets no ten minutes of patience.
   */
  unreachedCalls?: number;
}

export const DEFAULT_OUTAGE: Required<OutageOptions> = { maxOutageMs: 10 * 60_000, baseDelayMs: 5_000, maxDelayMs: 60_000, unreachedCalls: 1 };

export interface OutageState {
  /** When the outage began (ms since the epoch). */
  since: number;
  /** When the waiting calls try again. */
  nextTryAt: number;
  /** The last error, for the progress line. */
  lastError: string;
}

/** Asks the endpoint whether it answers at all: true for any answer, false when it fails like the call did. */
export type Probe = () => Promise<boolean>;

export class OutageGate {
  private readonly opts: Required<OutageOptions>;
  /** Answers the endpoint gave during the run; a caller compares it before and after its call. */
  successes = 0;
  /** Probe requests sent. */
  probes = 0;
  /** Rows whose failure stood because the endpoint answered a probe. */
  ownFailures = 0;
  private delay: number;
  private current: OutageState | undefined;
  private exceeded = false;
  private deadline: NodeJS.Timeout | undefined;
  private probing: Promise<boolean> | undefined;
  /** Whether any request of the run got an HTTP answer (a reply or an error status). */
  private heard = false;
  private unreached = 0;
  /** Calls already given their one more try after a rate limit ended with the probe's answer. */
  private readonly regraced = new WeakSet<object>();

  constructor(
    options: OutageOptions = {},
    private readonly hooks: {
      /** The outage began, moved to a new try, or ended (undefined). */
      onChange?: (state: OutageState | undefined) => void;
      /** The outage lasted longer than allowed: the caller stops the run. */
      onExceeded?: (state: OutageState) => void;
      /** The endpoint was never reached (no HTTP answer at all): the caller stops the run. */
      onUnreachable?: (error: JudgeError) => void;
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
    this.heard = true;
    if (this.current) {
      this.current = undefined;
      this.delay = this.opts.baseDelayMs;
      if (this.deadline) clearTimeout(this.deadline);
      this.deadline = undefined;
      this.hooks.onChange?.(undefined);
    }
  }

  /** Clears the outage deadline (call when the run ends). */
  dispose(): void {
    if (this.deadline) clearTimeout(this.deadline);
    this.deadline = undefined;
  }

  /**
   * A call gave up after its own retries. Resolves true when the caller should try the call again
   * (nobody was answered since `mark`, the caller's reading of `successes` when its last attempt
   * began, the probe failed too, and the next try is due); false when this failure stands as the
   * row's error. `call` identifies the call across its tries.
   */
  async shouldRetry(error: JudgeError, mark: number, call: object, signal?: AbortSignal, probe?: Probe): Promise<boolean> {
    if (error.options.status !== undefined) this.heard = true;
    if (!error.retryable || this.exceeded || this.successes !== mark) return false;
    const wasDown = this.current !== undefined;
    if (probe && (await this.probe(probe))) {
      // The probe's answer ended an outage this failure was part of: try the call again.
      if (wasDown) return true;
      // A rate limit says nothing about the request: when nobody was answered during it and the
      // probe is answered now, the limit has just lifted (a storm that ends as the probe goes
      // out). The call tries once more; a second such failure is the row's own (a request too
      // large for the limit fails every time).
      if (error.kind === 'rate-limit' && !this.regraced.has(call)) {
        this.regraced.add(call);
        return true;
      }
      this.ownFailures++;
      return false;
    }
    if (this.exceeded || this.neverReached(error)) return false;
    const now = this.now();
    if (!this.current) {
      this.current = { since: now, nextTryAt: this.capped(now + this.delay, now), lastError: error.message };
      this.deadline = setTimeout(() => this.exceed(), this.opts.maxOutageMs);
      this.deadline.unref?.();
      this.hooks.onChange?.(this.current);
    } else if (this.current.nextTryAt <= now) {
      // The last try failed too: wait longer before the next one.
      this.delay = Math.min(this.opts.maxDelayMs, this.delay * 2);
      this.current = { ...this.current, nextTryAt: this.capped(now + this.delay, this.current.since), lastError: error.message };
      this.hooks.onChange?.(this.current);
    }
    await sleep(Math.max(0, this.current.nextTryAt - now), signal);
    return !this.exceeded;
  }

  /** True (and the run told to stop) once enough calls failed to connect while nothing was ever answered. */
  private neverReached(error: JudgeError): boolean {
    if (this.heard || error.kind !== 'network') return false;
    if (++this.unreached < this.opts.unreachedCalls) return false;
    this.exceeded = true;
    this.hooks.onUnreachable?.(error);
    return true;
  }

  /** The next try never lies past the deadline: the last one is made at it. */
  private capped(at: number, since: number): number {
    return Math.min(at, since + this.opts.maxOutageMs);
  }

  private exceed(): void {
    this.deadline = undefined;
    const state = this.current;
    if (!state) return;
    this.exceeded = true;
    this.hooks.onExceeded?.(state);
  }

  /** One probe at a time; concurrent callers share its answer. An answer counts as a success. */
  private probe(probe: Probe): Promise<boolean> {
    this.probing ??= (async () => {
      this.probes++;
      try {
        const up = await probe();
        if (up) this.onSuccess();
        return up;
      } catch {
        return false;
      } finally {
        this.probing = undefined;
      }
    })();
    return this.probing;
  }
}
