// Disk cache of validated judge replies, keyed by the exact request, so re-running a batch costs
// nothing. Only successful, validated replies are stored; entries are written atomically.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ChatMessage, StructuredOutputMode, TokenUsage } from '../transport/types';
import { writeJsonString } from '../../jsonWrite';

export interface CacheKeyInput {
  baseURL: string;
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  responseFormat?: { mode: StructuredOutputMode; name: string; schema: Record<string, unknown> };
  /** 0-based sample index, so --samples N asks N times instead of reading one answer N times. */
  sample: number;
  /** Asked for logprobs (`scoring: expected`): a reply cached without them cannot give the expected score. */
  logprobs?: boolean;
}

export interface CachedReply {
  /** The validated reply text (the repaired one when a repair was needed). */
  text: string;
  model: string;
  usage?: TokenUsage;
  repaired?: boolean;
  /** A valid reply the strategy's follow-up replaced (see JudgeStrategy.followUp). */
  superseded?: string;
  /** `scoring: expected`: the probability-weighted score (null: the endpoint gave no logprobs). */
  expected?: number | null;
}

export interface JudgeCache {
  get(key: string): Promise<CachedReply | undefined>;
  put(key: string, value: CachedReply): Promise<void>;
  has(key: string): Promise<boolean>;
}

const VERSION = 1;

/** `$JUDGE_STUDIO_CACHE_DIR`, else `$XDG_CACHE_HOME/judge-studio`, else `~/.cache/judge-studio`. */
export function defaultCacheDir(env: Record<string, string | undefined>, home = os.homedir()): string {
  if (env.JUDGE_STUDIO_CACHE_DIR) return env.JUDGE_STUDIO_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'judge-studio');
  return path.join(home, '.cache', 'judge-studio');
}

/** JSON with object keys sorted and undefined values dropped: equal requests give equal text. */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  writeCanonical(value, (piece) => void out.push(piece));
  return out.join('');
}

/** canonicalJson as pieces, so a 50 MB prompt is hashed without one more copy of it. */
function writeCanonical(value: unknown, emit: (piece: string) => void): void {
  if (typeof value === 'string') return writeJsonString(value, emit);
  if (value === null || typeof value !== 'object') return emit(JSON.stringify(value) ?? 'null');
  if (Array.isArray(value)) {
    emit('[');
    value.forEach((v, i) => {
      if (i > 0) emit(',');
      if (v === undefined) emit('null');
      else writeCanonical(v, emit);
    });
    return emit(']');
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  emit('{');
  entries.forEach(([k, v], i) => {
    emit(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`);
    writeCanonical(v, emit);
  });
  emit('}');
}

export function cacheKey(input: CacheKeyInput): string {
  const messages = input.messages.map((m) => ({ role: m.role, content: m.content }));
  const hash = createHash('sha256');
  writeCanonical({ v: VERSION, ...input, messages }, (piece) => void hash.update(piece));
  return hash.digest('hex');
}

export class DiskCache implements JudgeCache {
  constructor(readonly dir: string) {}

  private file(key: string): string {
    return path.join(this.dir, `v${VERSION}`, key.slice(0, 2), `${key}.json`);
  }

  async get(key: string): Promise<CachedReply | undefined> {
    let text: string;
    try {
      text = await fs.readFile(this.file(key), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const value = JSON.parse(text) as Partial<CachedReply>;
      if (typeof value.text !== 'string' || typeof value.model !== 'string') return undefined;
      return value as CachedReply;
    } catch {
      return undefined; // a damaged entry is a miss; the next success overwrites it
    }
  }

  async has(key: string): Promise<boolean> {
    return (await this.get(key)) !== undefined;
  }

  async put(key: string, value: CachedReply): Promise<void> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(value), 'utf8');
    await fs.rename(tmp, file);
  }
}

/** An in-memory cache, for tests and for hosts without a writable disk. */
export class MemoryCache implements JudgeCache {
  readonly entries = new Map<string, CachedReply>();
  async get(key: string): Promise<CachedReply | undefined> {
    return this.entries.get(key);
  }
  async has(key: string): Promise<boolean> {
    return this.entries.has(key);
  }
  async put(key: string, value: CachedReply): Promise<void> {
    this.entries.set(key, value);
  }
}
