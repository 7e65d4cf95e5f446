// Live status of a single run: which pass a request belongs to (its messages start with that
// pass's rendered prompt) and what that pass is doing now. Pure; the host feeds it events from a
// client wrapper around the real judge client.
import type { ChatMessage } from '../../../core/judge/transport/types';
import type { PassState, PassStatus, RawReply } from '../../../protocol/run';

export type Order = 'AB' | 'BA';

export interface PassPrompt {
  order: Order;
  messages: ChatMessage[];
}

/** The pass whose prompt `messages` extends (a repair or follow-up appends to it), or undefined. */
export function passOf(messages: ChatMessage[], prompts: PassPrompt[]): PassPrompt | undefined {
  return prompts.find(
    (p) => messages.length >= p.messages.length && p.messages.every((m, i) => messages[i]?.role === m.role && messages[i]?.content === m.content),
  );
}

export function passLabel(order: Order, pairwise: boolean): string {
  if (!pairwise) return 'Judge call';
  return order === 'AB' ? 'Pass 1 · order AB' : 'Pass 2 · order BA (swapped)';
}

/** Tracks every pass of one run; `passes` and `raw` are what the view shows. */
export class PassTracker {
  private readonly states = new Map<Order, PassState>();
  private readonly attempts = new Map<Order, number>();
  private readonly repairs = new Set<Order>();
  readonly raw: RawReply[] = [];

  constructor(
    private readonly prompts: PassPrompt[],
    private readonly pairwise: boolean,
  ) {
    for (const p of prompts) this.states.set(p.order, 'waiting');
  }

  /** Classifies a request: the first turn is "sent" (again: "retrying"), a longer conversation a repair or a follow-up. */
  request(messages: ChatMessage[]): Order | undefined {
    const pass = passOf(messages, this.prompts);
    if (!pass) return undefined;
    const extra = messages.length - pass.messages.length;
    const tries = (this.attempts.get(pass.order) ?? 0) + 1;
    this.attempts.set(pass.order, tries);
    const prior = this.states.get(pass.order);
    let state: PassState;
    if (extra === 0) state = tries > 1 && prior !== 'answered' ? 'retrying' : 'sent';
    else state = /could not be used/.test(messages[messages.length - 1]?.content ?? '') ? 'repairing' : 'following-up';
    if (state === 'repairing') this.repairs.add(pass.order);
    this.states.set(pass.order, state);
    return pass.order;
  }

  /** Records a reply; the second reply of a pass (after a repair or follow-up) is labelled as such. */
  reply(order: Order, text: string): void {
    this.states.set(order, 'answered');
    const label = passLabel(order, this.pairwise);
    const n = this.replies(order) + 1;
    this.raw.push({ label: n > 1 ? `${label} · reply ${n}` : label, text });
  }

  error(order: Order): void {
    if (this.states.get(order) !== 'answered') this.states.set(order, 'failed');
  }

  /** The replies received so far for a pass. */
  replies(order: Order): number {
    const label = passLabel(order, this.pairwise);
    return this.raw.filter((r) => r.label === label || r.label.startsWith(`${label} · reply`)).length;
  }

  /** True when some pass needed a repair request (its first reply was invalid). */
  get repaired(): boolean {
    return this.repairs.size > 0;
  }

  /**
   * After the run: when the row failed, a pass still in flight failed, and one that answered gave
   * an unusable reply, unless it is among `finished` (passes the results line kept as valid).
   */
  settle(failed: boolean, finished: readonly Order[] = []): void {
    if (!failed) return;
    for (const [order, state] of this.states) {
      if (state !== 'answered') this.states.set(order, 'failed');
      else if (!finished.includes(order)) this.states.set(order, 'unusable');
    }
  }

  get passes(): PassStatus[] {
    return this.prompts.map((p) => ({ order: p.order, label: passLabel(p.order, this.pairwise), state: this.states.get(p.order) ?? 'waiting' }));
  }
}
