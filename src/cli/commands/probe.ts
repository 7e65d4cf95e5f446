// `judge-studio probe <template> --data D [--probes LIST] [--out DIR] [--threshold T]`: judges each
// row next to deterministic perturbations of its response and reports the biases that moved verdicts.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { formatOf, readDataset } from '../../core/dataset';
import { defaultCacheDir, DiskCache } from '../../core/judge/engine/cache';
import { judgeFromTemplate } from '../../core/judge/engine/prepare';
import { judgeSettings } from '../../core/judge/engine/settings';
import { RunStats } from '../../core/judge/run/stats';
import type { StructuredOutputMode } from '../../core/judge/transport/types';
import { DEFAULT_THRESHOLD, defaultProbes, formatProbeReport, isProbeId, PROBE_IDS, PROBES, runProbes, type ProbeId } from '../../core/probe';
import { endpointFromArgs } from '../endpoint';
import { PROBE_OPTIONS } from '../options/judging';
import { formatDiagnostic } from '../format';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError, type Command } from '../io';
import { loadValidTemplate } from '../template';
import { parseRows } from './run';

export const probeCommand: Command = async (args, io) => {
  const { values: v, positionals } = parseArgs({ args, options: PROBE_OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new UsageError('expected exactly one template: judge-studio probe <template> --data <file>');
  if (!v.data) throw new UsageError('--data <file> is required (a .jsonl, .json or .csv dataset)');
  const threshold = v.threshold === undefined ? DEFAULT_THRESHOLD : Number(v.threshold);
  if (!(threshold >= 0 && threshold <= 1)) throw new UsageError(`--threshold takes a share between 0 and 1, got "${v.threshold}"`);
  const concurrency = int(v.concurrency, '--concurrency', 8);
  const timeoutMs = int(v.timeout, '--timeout', 120_000);
  const structured = (v.structured ?? 'json_schema') as StructuredOutputMode;
  if (!['json_schema', 'json_object', 'none'].includes(structured)) throw new UsageError(`--structured takes json_schema, json_object or none`);
  const rows = v.rows !== undefined ? parseRows(v.rows) : undefined;
  const log = (m: string) => io.stderr(`judge-studio probe: ${m}\n`);

  const loaded = await loadValidTemplate(positionals[0]!, io);
  if (!loaded) return EXIT_USAGE;
  for (const d of loaded.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
  const judge = judgeFromTemplate(loaded.template);
  const { config, metric } = judge;
  const probes = parseProbes(v.probes, config.kind);

  const dataFile = path.resolve(io.cwd, v.data);
  try {
    formatOf(dataFile);
    await fs.access(dataFile);
  } catch (e) {
    throw new UsageError(`${v.data}: cannot read the dataset (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const model = v.model ?? config.model.name;
  if (!model) throw new UsageError(`no model: pass --model or set model.name in ${positionals[0]}`);
  const endpoint = endpointFromArgs(v, io);
  const client = endpoint.client({ timeoutMs, log });
  const cacheDir = v['cache-dir'] !== undefined ? path.resolve(io.cwd, v['cache-dir']) : defaultCacheDir(io.env);
  const outDir = path.resolve(io.cwd, v.out ?? `probe-${metric}`);
  const stats = new RunStats();
  log(`judging ${v.data} with ${probes.length} probe(s) (${probes.join(', ')}) and the originals with ${model} at ${endpoint.shownURL}`);
  const run = await runProbes({
    judge,
    client,
    settings: judgeSettings(config, model, structured),
    items: readDataset(dataFile, io.signal ? { signal: io.signal } : {}),
    outDir,
    probes,
    threshold,
    concurrency,
    stats,
    cacheScope: endpoint.cacheScope,
    log,
    ...(rows ? { rows } : {}),
    ...(v['no-cache'] ? {} : { cache: new DiskCache(cacheDir) }),
    ...(io.signal ? { signal: io.signal } : {}),
  });
  if (run.skipped > 0) log(`${run.skipped} unreadable dataset record(s) skipped`);
  const rel = (f: string) => path.relative(io.cwd, f) || f;
  log(`wrote ${rel(run.files.dataset)}, ${rel(run.files.results)} and ${rel(run.files.report)}`);
  io.stdout(v.json ? `${JSON.stringify(run.report, null, 2)}\n` : formatProbeReport(run.report));
  return run.interrupted || stats.failed > 0 || run.report.susceptible.length > 0 ? EXIT_FINDINGS : EXIT_OK;
};

function parseProbes(text: string | undefined, kind: 'pointwise' | 'pairwise'): ProbeId[] {
  if (text === undefined) return defaultProbes(kind);
  const ids = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (ids.length === 0) throw new UsageError(`--probes takes a comma-separated list of ${PROBE_IDS.join(', ')}`);
  for (const id of ids) {
    if (!isProbeId(id)) throw new UsageError(`--probes: unknown probe "${id}"; the probes are ${PROBE_IDS.join(', ')}`);
    if (PROBES[id].pairwiseOnly && kind !== 'pairwise') throw new UsageError(`--probes: "${id}" applies to pairwise templates only`);
  }
  return [...new Set(ids)] as ProbeId[];
}

function int(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag} needs an integer ≥ 1, got "${value}"`);
  return n;
}
