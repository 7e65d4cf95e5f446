// The state file of a provider batch job (`batch submit --state S.json`): everything `status`,
// `collect` and `cancel` need, written atomically after every upload and every batch created, so
// an interrupted submit never loses a file or a batch that the provider already holds.
import { createReadStream, promises as fs } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { sha256Canonical } from '../results/keys';
import { z } from 'zod';

/**
 * 2: panels (one part per judge: a provider batch file holds one model), `scoring: expected`.
 * 3: every custom_id carries the submission's nonce and the sha256 of its request, so a line from
 * another submission, template or row cannot answer a request (collect refuses older states).
 */
export const STATE_VERSION = 3;
export const REQUEST_MAP = 'r<row>[.j<judge>].s<sample>.<order>.<nonce>.<request sha256, 16 hex>[.repair]' as const;
const OLD_REQUEST_MAPS = ['r<row>.s<sample>.<order>[.repair]', 'r<row>[.j<judge>].s<sample>.<order>[.repair]'] as const;

/** Where the batch requests go: OpenAI's path, or Azure's (deployment as model, no /v1). */
export type BatchEndpoint = '/v1/chat/completions' | '/chat/completions';

const counts = z.object({ total: z.number(), completed: z.number(), failed: z.number() });

const batchEntry = z.object({
  /** 1-based part number in submit order. */
  part: z.number(),
  kind: z.enum(['main', 'repair']),
  /** A panel's member (1-based) whose requests the part holds; absent for one judge. */
  judge: z.number().int().min(1).optional(),
  /** The uploaded input file; set as soon as the upload returns. */
  fileId: z.string().optional(),
  /** The provider's batch; set as soon as it is created. */
  id: z.string().optional(),
  /** First and last dataset row with a request in this part (main parts cover disjoint ranges). */
  rows: z.tuple([z.number(), z.number()]),
  requests: z.number(),
  bytes: z.number(),
  status: z.string().optional(),
  requestCounts: counts.optional(),
  /** Kept by states of earlier versions; never read: collect asks the provider for its files. */
  outputFileId: z.string().optional(),
  errorFileId: z.string().optional(),
  /** Why the provider failed the batch as a whole (validation errors). */
  errors: z.array(z.string()).optional(),
  /** Every row of this part has its results line: collect need not download it again. */
  collected: z.boolean().optional(),
});

const repairEntry = z.object({
  /** The position (`r<row>[.j<judge>].s<sample>.<order>`) of the request whose reply was invalid. */
  id: z.string(),
  /** The invalid reply and why it failed validation (the repair request quotes both). */
  text: z.string(),
  error: z.string(),
  /** Part number of the repair batch it went into. */
  part: z.number().optional(),
});

const panelSpec = z.object({
  /** Each judge: its label in `m/judges` and its model (all at the state's endpoint). */
  members: z.array(z.object({ label: z.string(), model: z.string() })).min(2),
  quorum: z.number().int().min(1).optional(),
});

export const batchStateSchema = z.object({
  version: z.union([z.literal(1), z.literal(2), z.literal(STATE_VERSION)]),
  createdAt: z.string(),
  /** Random, per submission (version 3): in every custom_id and in the batches' metadata. */
  nonce: z.string().regex(/^[0-9a-f]{16,64}$/).optional(),
  provider: z.enum(['openai', 'azure']),
  baseURL: z.string(),
  azureApiVersion: z.string().optional(),
  apiKeyEnv: z.string(),
  organization: z.string().optional(),
  endpoint: z.enum(['/v1/chat/completions', '/chat/completions']),
  metric: z.string(),
  template: z.object({ path: z.string(), hash: z.string(), text: z.string() }),
  data: z.object({ path: z.string(), size: z.number(), sha256: z.string() }),
  settings: z.object({
    model: z.string(),
    temperature: z.number().optional(),
    maxTokens: z.number().optional(),
    structured: z.enum(['json_schema', 'json_object', 'none']),
    schemaName: z.string(),
    expectedScale: z.object({ min: z.number(), max: z.number() }).optional(),
  }),
  /** A panel of judges at this endpoint (template `model.judges` or --judge). */
  panel: panelSpec.optional(),
  maxTokensKey: z.enum(['max_tokens', 'max_completion_tokens']),
  samples: z.number(),
  selection: z.object({
    from: z.number().optional(),
    to: z.number().optional(),
    shard: z.object({ index: z.number(), count: z.number() }).optional(),
  }),
  /** How a request's custom_id names it: `r<row>.s<sample>.<order>` (a panel's judge k: `r<row>.j<k>.s…`), repairs add `.repair`. */
  requestMap: z.enum([...OLD_REQUEST_MAPS, REQUEST_MAP]),
  /** Rows selected for judging, and requests rendered (all samples and pass orders). */
  totals: z.object({ rows: z.number(), requests: z.number() }),
  /** Rows the template could not be rendered for: failed rows without a request. */
  renderFailures: z.array(z.object({ row: z.number(), error: z.string() })),
  /** Rendering went through every selected row and every part is created. */
  submitted: z.boolean(),
  batches: z.array(batchEntry),
  repairs: z.array(repairEntry),
});

export type BatchState = z.infer<typeof batchStateSchema>;
export type PanelSpec = z.infer<typeof panelSpec>;
export type BatchEntry = z.infer<typeof batchEntry>;
export type RepairEntry = z.infer<typeof repairEntry>;

export const TERMINAL = new Set(['completed', 'expired', 'cancelled', 'failed']);

export function isTerminal(b: BatchEntry): boolean {
  return b.status !== undefined && TERMINAL.has(b.status);
}

export class BatchStateError extends Error {
  override readonly name = 'BatchStateError';
  constructor(
    readonly code: 'state-missing' | 'state-invalid' | 'state-exists' | 'data-changed' | 'batch-mismatch' | 'state-old',
    message: string,
  ) {
    super(message);
  }
}

export async function readState(file: string): Promise<BatchState> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    throw new BatchStateError('state-missing', `cannot read the batch state ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new BatchStateError('state-invalid', `${file} is not JSON (${(e as Error).message})`);
  }
  const parsed = batchStateSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BatchStateError('state-invalid', `${file} is not a judge-studio batch state (${issue?.path.join('.') || 'root'}: ${issue?.message})`);
  }
  return parsed.data;
}

/** Writes the state whole or not at all: a temporary file, fsync, then rename over the old one. */
export async function writeState(file: string, state: BatchState): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  const handle = await fs.open(tmp, 'w');
  try {
    await handle.writeFile(`${JSON.stringify(state, null, 1)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, file);
}

/** Size and sha256 of the dataset, so collect knows the rows are the rows that were submitted. */
export async function fingerprint(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}

export async function checkFingerprint(state: BatchState, file: string): Promise<void> {
  const now = await fingerprint(file).catch((e: Error) => {
    throw new BatchStateError('data-changed', `cannot read the dataset ${file} (${e.message})`);
  });
  if (now.size !== state.data.size || now.sha256 !== state.data.sha256) {
    throw new BatchStateError(
      'data-changed',
      `${file} changed since the batch was submitted (sha256 ${now.sha256.slice(0, 12)}…, was ${state.data.sha256.slice(0, 12)}…); ` +
        'results are joined to rows by number, so collect needs the dataset exactly as submitted',
    );
  }
}

export interface RequestId {
  row: number;
  /** A panel member (1-based); undefined for one judge. */
  judge?: number;
  sample: number;
  order: 'AB' | 'BA';
  repair: boolean;
  /** The submission's nonce and the request's hash (version 3 ids). */
  nonce: string;
  hash: string;
}

/** Where a request sits in the job: `r<row>[.j<judge>].s<sample>.<order>` (what a repair entry names). */
export function requestId(row: number, sample: number, order: 'AB' | 'BA', judge?: number): string {
  return `r${row}${judge !== undefined ? `.j${judge}` : ''}.s${sample}.${order}`;
}

/** The position of a parsed custom_id. */
export function positionOf(id: Pick<RequestId, 'row' | 'sample' | 'order' | 'judge'>): string {
  return requestId(id.row, id.sample, id.order, id.judge);
}

/** A request's custom_id: its position, the submission's nonce and the sha256 of the request body sent. */
export function customId(position: string, nonce: string, body: Record<string, unknown>, repair = false): string {
  return `${position}.${nonce}.${requestHash(body)}${repair ? '.repair' : ''}`;
}

/** The first 16 hex of sha256 over the canonical JSON of a request body (the line's `body`). */
export function requestHash(body: Record<string, unknown>): string {
  return sha256Canonical(body).slice(0, 16);
}

export function parseRequestId(id: string): RequestId | undefined {
  const m = /^r(\d{1,12})(?:\.j(\d{1,4}))?\.s(\d{1,6})\.(AB|BA)\.([0-9a-f]{16,64})\.([0-9a-f]{16})(\.repair)?$/.exec(id);
  if (!m) return undefined;
  return {
    row: Number(m[1]),
    ...(m[2] !== undefined ? { judge: Number(m[2]) } : {}),
    sample: Number(m[3]),
    order: m[4] as 'AB' | 'BA',
    nonce: m[5]!,
    hash: m[6]!,
    repair: m[7] !== undefined,
  };
}

/** A repair entry's position (`r<row>[.j<judge>].s<sample>.<order>`), parsed. */
export function parsePosition(id: string): Pick<RequestId, 'row' | 'judge' | 'sample' | 'order'> | undefined {
  const m = /^r(\d{1,12})(?:\.j(\d{1,4}))?\.s(\d{1,6})\.(AB|BA)$/.exec(id);
  if (!m) return undefined;
  return { row: Number(m[1]), ...(m[2] !== undefined ? { judge: Number(m[2]) } : {}), sample: Number(m[3]), order: m[4] as 'AB' | 'BA' };
}

/** A new submission's nonce. */
export function newNonce(): string {
  return randomBytes(12).toString('hex');
}

/**
 * The nonce of a state collect may trust its lines for; a state written before custom_ids carried
 * one (version 1 or 2) is refused: any line of any batch could answer its requests.
 */
export function stateNonce(state: BatchState, stateFile: string): string {
  if (state.version === STATE_VERSION && state.nonce !== undefined && state.requestMap === REQUEST_MAP) return state.nonce;
  throw new BatchStateError(
    'state-old',
    `${stateFile} was submitted by an earlier version of Judge Studio, whose request ids carry no nonce or request hash, so its batches' lines cannot be checked against the rows; ` +
      'collect it with the version that submitted it, or submit the job again',
  );
}
