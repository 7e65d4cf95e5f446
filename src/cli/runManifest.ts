// The run manifest: a small file beside the results (`<out>.run.json`) that records how the run
// was started (template, data, model, flags, and the endpoint flags with header names but never a
// header value or a key), so `judge-studio run --resume --out R` continues the same run, and every
// interruption hint prints a command that reaches the same endpoint.
// The manifest is a workspace file, so it is hostile: it never chooses where a key or the data go,
// nor how many requests are paid for. Endpoint flags are not taken from it; the command line must
// give the same endpoint, or the resume is refused showing the difference (never a command to
// copy with the manifest's URL in it). Flags that decide how many requests a run sends (samples,
// retries, rows…) are taken from it only when the command line repeats them. Paths it names (the
// template, the data, the cache folder) must lie inside the working folder or the results folder,
// else they must be given again on the command line.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { redactUrl } from '../core/judge/transport/endpoint';
import type { ShardIdentity } from '../core/results/shards';
import { UsageError } from './io';

export const MANIFEST_SUFFIX = '.run.json';

export function manifestFile(outFile: string): string {
  return `${outFile}${MANIFEST_SUFFIX}`;
}

/** Flags that shape the run and are carried over by a manifest resume (the command line wins). */
export const CARRIED_FLAGS = [
  'rows', 'shard', 'model', 'structured', 'concurrency', 'timeout', 'retries', 'samples', 'min-judges', 'reask-on-violation',
  'max-outage', 'no-cache', 'cache-dir', 'price', 'allow-skipped', 'screen-model', 'escalate', 'audit', 'audit-seed', 'screen-price',
  'max-reply-bytes', 'keep-raw-replies',
] as const;

/** Carried flags that decide how many requests a run sends: taken from a manifest only when the command line repeats them. */
export const COST_FLAGS = ['rows', 'shard', 'samples', 'retries', 'reask-on-violation', 'screen-model', 'escalate', 'audit'] as const;

/** Carried flags that name a folder: kept relative to the results folder, and taken back only inside the working or results folder. */
const PATH_FLAGS = new Set(['cache-dir']);

/** Flags of one invocation only: never recorded. */
const INVOCATION_FLAGS = new Set(['data', 'out', 'resume', 'overwrite', 'dry-run', 'json', 'help', 'allow-template-change']);

type FlagValue = string | boolean | string[];
export type FlagValues = Record<string, FlagValue | undefined>;

const flagValue = z.union([z.string().max(10_000), z.boolean(), z.array(z.string().max(10_000)).max(1_000)]);
const manifestSchema = z.object({
  v: z.literal(1),
  template: z.string().min(1).max(4_096),
  data: z.string().min(1).max(4_096),
  model: z.string().max(10_000),
  baseURL: z.string().max(10_000),
  /** Endpoint flags as given (header values replaced by names). */
  endpoint: z.record(z.string().max(100), flagValue),
  flags: z.record(z.string().max(100), flagValue),
  templateHash: z.string().max(100),
  started: z.string().max(100),
  /** `--shard K/N`: which share of which dataset the run judged (merge checks the shards agree). */
  shard: z
    .object({
      index: z.number().int().min(1),
      count: z.number().int().min(1),
      dataset: z.object({ keys: z.string().regex(/^[0-9a-f]{16}$/), rows: z.number().int().min(0) }),
    })
    .optional(),
});
export type RunManifest = z.infer<typeof manifestSchema>;

/** The endpoint flags of a command line, in the form a manifest keeps and compares: header names only. */
export function endpointFlags(v: FlagValues): Record<string, FlagValue> {
  const out: Record<string, FlagValue> = {};
  for (const [k, value] of Object.entries(v)) {
    if (value === undefined || INVOCATION_FLAGS.has(k) || (CARRIED_FLAGS as readonly string[]).includes(k)) continue;
    if (k === 'header') out[k] = (value as string[]).map((h) => h.slice(0, Math.max(0, h.indexOf(':'))).trim().toLowerCase()).sort();
    else out[k] = Array.isArray(value) ? [...value].sort() : value;
  }
  return out;
}

export function buildManifest(o: { v: FlagValues; cwd: string; templateFile: string; dataFile: string; outFile: string; model: string; baseURL: string; templateHash: string; shard?: ShardIdentity }): RunManifest {
  const dir = path.dirname(o.outFile);
  const flags: Record<string, FlagValue> = {};
  for (const k of CARRIED_FLAGS) {
    const value = o.v[k];
    if (value === undefined) continue;
    flags[k] = PATH_FLAGS.has(k) && typeof value === 'string' ? portable(path.relative(dir, path.resolve(o.cwd, value))) : value;
  }
  return {
    v: 1,
    template: portable(path.relative(dir, o.templateFile)),
    data: portable(path.relative(dir, o.dataFile)),
    model: o.model,
    baseURL: o.baseURL,
    endpoint: endpointFlags(o.v),
    flags,
    templateHash: o.templateHash,
    started: new Date().toISOString(),
    ...(o.shard ? { shard: o.shard } : {}),
  };
}

/** Written whole or not at all (a temporary file renamed into place); a full disk leaves nothing behind and says so. */
export async function writeManifest(outFile: string, manifest: RunManifest): Promise<void> {
  const file = manifestFile(outFile);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await fs.writeFile(tmp, `${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
    await fs.rename(tmp, file);
  } catch (e) {
    await fs.rm(tmp, { force: true });
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot write the run manifest ${file}${code === 'ENOSPC' ? ': the disk is full' : ''} (${code ?? (e as Error).message}); nothing was judged. Free space (or choose an --out elsewhere), then run again`);
  }
}

/** The manifest beside `outFile`, undefined when there is none; a malformed one is a UsageError. */
export async function readManifest(outFile: string, shown: string): Promise<RunManifest | undefined> {
  const file = manifestFile(outFile);
  let text: string;
  try {
    const stat = await fs.stat(file);
    if (stat.size > 1 << 20) throw new UsageError(`${shown}${MANIFEST_SUFFIX} is too large to be a run manifest; delete it and pass the run's template and --data`);
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`${shown}${MANIFEST_SUFFIX} is not valid JSON; delete it and pass the run's template and --data`);
  }
  const checked = manifestSchema.safeParse(parsed);
  if (!checked.success) throw new UsageError(`${shown}${MANIFEST_SUFFIX} is not a run manifest this version reads; delete it and pass the run's template and --data`);
  return checked.data;
}

export interface Resumed {
  values: FlagValues;
  template: string;
  /** Notices for stderr: what was taken from the manifest. */
  notes: string[];
}

/**
 * A resume's command line completed from the manifest: template, --data and the carried flags
 * where the command line is silent. Paths outside the working folder and the results folder are
 * refused unless given again.
 */
export function resumeFromManifest(m: RunManifest, o: { values: FlagValues; template: string | undefined; outFile: string; cwd: string; shown: string }): Resumed {
  const dir = path.dirname(o.outFile);
  const inside = (p: string) => [o.cwd, dir].some((root) => !path.relative(root, p).startsWith('..') && !path.isAbsolute(path.relative(root, p)));
  const take = (stored: string, what: string, flag: string) => {
    const abs = path.resolve(dir, stored);
    if (!inside(abs)) {
      throw new UsageError(`${o.shown}${MANIFEST_SUFFIX} names a ${what} outside this folder and the results folder (${stored}); pass it again (${flag}) to continue`);
    }
    return path.relative(o.cwd, abs) || abs;
  };
  const values: FlagValues = { ...o.values };
  const notes: string[] = [];
  const template = o.template ?? take(m.template, 'template', 'as the first argument');
  if (values.data === undefined) values.data = take(m.data, 'dataset', '--data');
  const carried: string[] = [];
  const costly: string[] = [];
  for (const [k, value] of Object.entries(m.flags)) {
    if (!(CARRIED_FLAGS as readonly string[]).includes(k) || values[k] !== undefined) continue;
    if ((COST_FLAGS as readonly string[]).includes(k)) {
      costly.push(flagText(k, value));
      continue;
    }
    values[k] = PATH_FLAGS.has(k) && typeof value === 'string' ? take(value, `${k} folder`, `--${k}`) : value;
    carried.push(flagText(k, values[k]!));
  }
  if (costly.length > 0) {
    throw new UsageError(
      `${o.shown}${MANIFEST_SUFFIX} asks for ${costly.join(' ')}, which decide${costly.length === 1 ? 's' : ''} how many requests the run sends; a manifest is a file anyone can edit, so it never decides that alone: ` +
        `repeat ${costly.length === 1 ? 'it' : 'them'} on the command line to continue the run (or give the values you want)`,
    );
  }
  notes.push(`resuming the run recorded in ${o.shown}${MANIFEST_SUFFIX}: ${template} on ${String(values.data)}${carried.length ? ` with ${carried.join(' ')}` : ''}`);
  return { values, template, notes };
}

function flagText(k: string, value: FlagValue): string {
  return typeof value === 'boolean' ? `--${k}` : Array.isArray(value) ? value.map((x) => `--${k} ${x}`).join(' ') : `--${k} ${value}`;
}

/**
 * Refuses a resume that would send the data elsewhere than the run it continues. The manifest's
 * side is shown as what the file says (it may have been edited), never as a command to copy.
 */
export function checkSameEndpoint(m: RunManifest, o: { values: FlagValues; baseURL: string; shown: string }): void {
  const now = endpointFlags(o.values);
  const differences: string[] = [];
  const shownValue = (v: FlagValue | undefined) => (v === undefined ? '(none)' : redactUrl(JSON.stringify(v)));
  if (trim(m.baseURL) !== trim(o.baseURL)) differences.push(`base URL ${redactUrl(m.baseURL)} in the manifest, ${redactUrl(o.baseURL)} now`);
  for (const k of new Set([...Object.keys(m.endpoint), ...Object.keys(now)])) {
    if (k === 'base-url') continue;
    if (JSON.stringify(m.endpoint[k] ?? null) !== JSON.stringify(now[k] ?? null)) differences.push(`--${k} ${shownValue(m.endpoint[k])} in the manifest, ${shownValue(now[k])} now`);
  }
  if (differences.length === 0) return;
  throw new UsageError(
    `${o.shown} was judged with other endpoint settings, as its manifest ${o.shown}${MANIFEST_SUFFIX} says (${differences.join('; ')}). ` +
      'A results file never chooses where your key and data go, and a manifest is a file anyone can edit: ' +
      `to continue the same run, give the endpoint flags you judged it with yourself; to judge with these settings, choose another --out (or delete ${o.shown}${MANIFEST_SUFFIX})`,
  );
}

/**
 * The command that continues a run: `judge-studio run [T --data D] --resume --out R` plus the
 * endpoint flags, with the resolved base URL always spelled out. Template and data are named when
 * they lie outside the results folder. Header values are not repeated (the caller says so).
 */
export function continueCommand(o: { endpoint: Record<string, FlagValue>; cost?: FlagValues; templateFile: string; dataFile: string; outFile: string; baseURL: string; cwd: string }): string {
  const dir = path.dirname(o.outFile);
  const rel = (p: string) => path.relative(o.cwd, p) || p;
  const outside = (p: string) => path.relative(dir, p).startsWith('..') || path.isAbsolute(path.relative(dir, p));
  const parts = ['judge-studio', 'run'];
  if (outside(o.templateFile) || outside(o.dataFile)) parts.push(rel(o.templateFile), '--data', rel(o.dataFile));
  parts.push('--resume', '--out', rel(o.outFile), '--base-url', o.baseURL);
  for (const [k, value] of Object.entries(o.endpoint)) {
    if (k === 'base-url' || k === 'header') continue;
    if (value === true) parts.push(`--${k}`);
    else if (Array.isArray(value)) for (const x of value) parts.push(`--${k}`, x);
    else if (typeof value === 'string') parts.push(`--${k}`, value);
  }
  // A manifest does not carry these alone, so the command repeats them.
  for (const k of COST_FLAGS) {
    const value = o.cost?.[k];
    if (value === true) parts.push(`--${k}`);
    else if (typeof value === 'string') parts.push(`--${k}`, value);
  }
  return parts.map(shellQuote).join(' ');
}

/** Header names the continuing command must repeat (their values are never stored). */
export function headerNames(v: FlagValues): string[] {
  return (endpointFlags(v).header as string[] | undefined) ?? [];
}

function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function portable(p: string): string {
  return p.split(path.sep).join('/');
}

function trim(url: string): string {
  return url.replace(/\/+$/, '');
}
