// A provider batch as a transport of the engine: the engine judges a row exactly as `run` does and
// asks this client for each reply; the client answers from the batch's output file by the custom_id
// of the very request the engine built (its position, the submission's nonce and the request's
// hash), so a line written for another submission, template, setting or row answers nothing. A
// repair the batch has not answered yet is queued for `batch submit --repairs` (or sent now with
// --repair-sync), and the row waits (ReplyNotReady) until it has.
import type { JudgeClient, JudgeRequest, JudgeResponse, RequestTag } from '../judge/transport/types';
import { JudgeError, ReplyNotReady } from '../judge/transport/types';
import type { BatchReply, PartReplies } from './replies';
import { customId, requestHash, requestId, type BatchState, type RepairEntry } from './state';
import { batchBody } from './submit';

/** What to do with an invalid reply: queue a repair batch, repair now through the client, or fail the row. */
export type RepairMode = 'batch' | 'sync' | 'none';

/** The repairs of a collect: their replies, the ones still running, and the queue for the next submit. */
export class RepairBook {
  /** The replies of finished repair batches, by the position of the request they repair. */
  readonly settled = new Map<string, PartReplies>();
  /** Positions whose repair batch is still running. */
  readonly running = new Set<string>();
  /** Repairs actually sent now (--repair-sync). */
  sentNow = 0;

  constructor(
    readonly mode: RepairMode,
    private readonly queue: RepairEntry[],
    readonly syncClient?: JudgeClient,
  ) {}

  isQueued(id: string): boolean {
    return this.queue.some((r) => r.id === id);
  }

  add(id: string, tag: RequestTag): void {
    if (!this.isQueued(id)) this.queue.push({ id, text: tag.previous ?? '', error: tag.error ?? '' });
  }

  /** A queued repair settled another way (synchronously, or failed with --no-repair). */
  drop(id: string): void {
    const i = this.queue.findIndex((r) => r.id === id && r.part === undefined);
    if (i >= 0) this.queue.splice(i, 1);
  }

  get waiting(): number {
    return this.queue.filter((r) => r.part === undefined).length;
  }
}

/** The batch answers of one judge (a panel member, or the only judge) for the row being collected. */
export class BatchReplyClient implements JudgeClient {
  readonly id: string;
  private part: PartReplies | undefined;

  constructor(
    private readonly repairs: RepairBook,
    private readonly state: Pick<BatchState, 'maxTokensKey'> & { nonce: string },
    /** The panel member (1-based) in custom_ids; undefined for one judge. */
    private readonly judge?: number,
  ) {
    this.id = `batch${judge !== undefined ? `#${judge}` : ''}`;
  }

  /** The replies of the part that holds the next row's requests. */
  at(part: PartReplies): void {
    this.part = part;
  }

  async complete(request: JudgeRequest): Promise<JudgeResponse> {
    const tag = request.tag;
    if (!tag || !this.part) throw new JudgeError('internal', 'a batch reply was asked for without its request tag', { retryable: false });
    const position = requestId(tag.row, tag.sample, tag.order, this.judge);
    if (tag.step === 'judge') return answer(this.lineFor(this.part, position, request, false), request);
    if (tag.step === 'follow-up') throw new JudgeError('internal', 'a provider batch sends no follow-up requests', { retryable: false });
    return this.repair(position, tag, request);
  }

  /** The line whose custom_id names this very request, else why there is none. */
  private lineFor(part: PartReplies, position: string, request: JudgeRequest, repair: boolean): BatchReply {
    const body = batchBody(request, this.state);
    const found = part.replies.get(customId(position, this.state.nonce, body, repair));
    if (found) return found;
    const other = part.hashes.get(`${position}${repair ? '.repair' : ''}`);
    if (other === undefined) return part.missing;
    return {
      ok: false,
      kind: 'server',
      error: `the batch's line for ${position}${repair ? ' (repair)' : ''} answers another request than this row's (request hash ${other}, not ${requestHash(body)}): the dataset, the template, the settings or the state changed since submit; it is not used`,
    };
  }

  private async repair(position: string, tag: RequestTag, request: JudgeRequest): Promise<JudgeResponse> {
    const book = this.repairs;
    const done = book.settled.get(position);
    if (done) return answer(this.lineFor(done, position, request, true), request);
    if (book.running.has(position)) throw new ReplyNotReady(tag);
    if (book.mode === 'sync' && book.syncClient) {
      const { tag: _tag, ...sent } = request;
      book.sentNow++;
      const res = await book.syncClient.complete(sent);
      book.drop(position);
      return res;
    }
    if (book.mode === 'none') {
      book.drop(position);
      throw new JudgeError('config', `invalid reply (${tag.error}); no repair request was sent (--no-repair)`, { retryable: false, errorKind: 'invalid-reply' });
    }
    book.add(position, tag);
    throw new ReplyNotReady(tag);
  }
}

function answer(reply: BatchReply, request: JudgeRequest): JudgeResponse {
  if (!reply.ok) throw new JudgeError('http', reply.error, { retryable: false, errorKind: reply.kind });
  return {
    text: reply.text,
    model: reply.model || request.model,
    ...(reply.usage ? { usage: reply.usage } : {}),
    ...(request.logprobs ? { tokens: reply.tokens ?? null } : {}),
  };
}
