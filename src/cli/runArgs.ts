// Flag parsing shared by `run`, `batch` and `probe`: row ranges, shards, durations, prices, the
// structured-output mode and the dataset check. Every problem is a UsageError naming the flag.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { checkDatasetFile, formatOf } from '../core/dataset';
import type { RowRange, Shard } from '../core/judge/run/runner';
import type { StructuredOutputMode } from '../core/judge/transport/types';
import { UsageError } from './io';

export function int(value: string | undefined, flag: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) throw new UsageError(`${flag} needs an integer ≥ ${min}, got "${value}"`);
  return n;
}

export function parseRows(text: string): RowRange {
  const m = /^\s*(\d*)\s*(-?)\s*(\d*)\s*$/.exec(text);
  const [, a = '', dash = '', b = ''] = m ?? [];
  if (!m || (a === '' && b === '') || (dash === '' && b !== '')) throw new UsageError(`--rows takes A-B, A-, -B or N (1-based), got "${text}"`);
  const from = a === '' ? undefined : Number(a);
  const to = dash === '' ? from : b === '' ? undefined : Number(b);
  if (from === 0 || to === 0 || (from !== undefined && to !== undefined && from > to)) {
    throw new UsageError(`--rows ${text}: rows are numbered from 1 and A must not exceed B`);
  }
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

/** `K/N` with 1 ≤ K ≤ N. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || !Number.isSafeInteger(index) || !Number.isSafeInteger(count) || index < 1 || count < 1 || index > count) {
    throw new UsageError(`--shard takes K/N with 1 ≤ K ≤ N (e.g. 2/4 for the second of four shards), got "${text}"`);
  }
  return { index, count };
}

export function parseStructured(value: string | undefined): StructuredOutputMode {
  const modes: StructuredOutputMode[] = ['json_schema', 'json_object', 'none'];
  if (value === undefined) return 'json_schema';
  if (!modes.includes(value as StructuredOutputMode)) throw new UsageError(`--structured takes ${modes.join(', ')}, got "${value}"`);
  return value as StructuredOutputMode;
}

export function parsePrice(text: string): { input: number; output: number; cached?: number } {
  const parts = text.split(',');
  const [input, output, cached] = parts.map((s) => Number(s.trim()));
  if (parts.length > 3 || input === undefined || output === undefined || !(input >= 0) || !(output >= 0) || (cached !== undefined && !(cached >= 0))) {
    throw new UsageError(`--price takes IN,OUT[,CACHED] in USD per million tokens, e.g. 2.5,10 or 2.5,10,1.25; got "${text}"`);
  }
  return { input, output, ...(cached !== undefined ? { cached } : {}) };
}

export async function checkDataset(cwd: string, data: string): Promise<string> {
  const file = path.resolve(cwd, data);
  try {
    formatOf(file);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  try {
    await fs.access(file);
  } catch (e) {
    throw new UsageError(`${data}: cannot read the dataset (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  // A binary file or an unsupported encoding is refused up front, not read line by line.
  const check = await checkDatasetFile(file);
  if (!check.ok) throw new UsageError(check.message.split(file).join(data));
  return file;
}

/** `90s`, `10m`, `1h` or a number of seconds, as milliseconds. */
export function parseDuration(text: string, flag: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!m) throw new UsageError(`${flag} takes a duration such as 90s, 10m or 1h, got "${text}"`);
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Math.round(Number(m[1]) * unit);
}
