// `judge-studio run`: judge every selected dataset row against an OpenAI-compatible endpoint,
// appending one results line per row as it finishes; progress and the summary go to stderr.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { checkDatasetFile, formatOf, readDataset } from '../../core/dataset';
import { defaultCacheDir, DiskCache } from '../../core/judge/engine/cache';
import { dryRun } from '../../core/judge/reports/dryRun';
import { isDimensional } from '../../core/judge/strategies/dimensions';
import { judgeFromTemplate } from '../../core/judge/engine/prepare';
import { judgeSettings } from '../../core/judge/engine/settings';
import { compositionError } from '../../core/judge/engine/compose';
import { scanResults } from '../../core/judge/run/scan';
import { PipelineError, resumeHint, runPipeline } from '../../core/judge/run/pipeline';
import { DEFAULT_RETRY } from '../../core/judge/transport/retry';
import type { RowRange, Shard } from '../../core/judge/run/runner';
import { RunStats } from '../../core/judge/run/stats';
import { strategyFor } from '../../core/judge/strategies/strategy';
import { dryRunJson, dryRunLines, summaryJson, summaryLines } from '../../core/judge/reports/summary';
import { JudgeError } from '../../core/judge/transport/types';
import type { StructuredOutputMode } from '../../core/judge/transport/types';
import { ENDPOINT_OPTIONS, ENDPOINT_USAGE, endpointFromArgs, parseHeaders } from '../endpoint';
import { formatDiagnostic } from '../format';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError } from '../io';
import type { Command } from '../io';
import { loadValidTemplate } from '../template';
import { buildPanel, memberKeys, PANEL_ENDPOINT_OPTIONS, PANEL_ENDPOINT_USAGE, panelRequest, parseEndpoints, type PanelBuild } from '../panel';
import { TIER_OPTIONS, TIER_USAGE, tierSetup } from '../tiers';
import { tierSummaryJson, tierSummaryLines } from '../../core/judge/tiers/summary';

const USAGE = `Usage: judge-studio run <template> --data <file> [options]

  --rows A-B               only rows A..B (1-based, inclusive; "A-", "-B" and "N" work too)
  --shard K/N              only rows whose (row − 1) mod N = K − 1: one of N machines' share (with
                           --rows, the rows in both); join the shards with judge-studio merge
  --model M                model (default: the template's model.name)
${ENDPOINT_USAGE}
  --structured MODE        json_schema (default), json_object or none; rejected modes fall back
  --concurrency N          requests in flight (default 8; lowered automatically on repeated 429s)
  --timeout MS             per-request deadline (default 120000)
  --retries N              retries on 429, 5xx, timeouts and network errors (default ${DEFAULT_RETRY.retries})
  --samples N              judge each row N times; majority verdict, agreement as confidence
  --judge MODEL[@BASE_URL] a panel member (repeatable; replaces the template's model.judges): every
                           member judges every row with the full protocol; BASE_URL may also be a
                           name given with --endpoint. Without @, the member uses --base-url.
${PANEL_ENDPOINT_USAGE}
  --min-judges N           panel quorum: judges that must answer (default: a strict majority)
  --reask-on-violation     templates with dimensions: when a reply breaks a consistency rule, send one
                           follow-up quoting the rule; both replies are kept and the rules the final
                           one still breaks are reported. Without it violations are only reported.
  --out FILE               results JSONL (default <metric>.results.jsonl); an existing file is
                           never replaced silently: use --resume or --overwrite
  --resume                 keep the rows already judged in --out; judge the rest and the failed ones
                           again (the last line per row stands). Refuses a file of another metric or
                           template version
  --allow-template-change  with --resume: continue a file written by another version of the template
  --overwrite              start an existing --out file again (its rows are lost)
  --max-outage DURATION    how long the run waits, paused, while the endpoint keeps failing (429, 5xx,
                           timeouts, network) before it stops as interrupted (default 10m; 90s, 1h)
  --no-cache               do not read or write the judge cache
  --cache-dir DIR          cache location (default $JUDGE_STUDIO_CACHE_DIR, else
                           $XDG_CACHE_HOME/judge-studio, else ~/.cache/judge-studio)
  --price IN,OUT[,CACHED]  USD per million prompt,completion tokens, to print a cost; CACHED prices the
                           prompt tokens the provider reports as read from its prompt cache
  --dry-run                render every row, print the request count and a token estimate, call nothing
  --json                   print the final summary as JSON on stdout

Each results line is the input row plus "_row" (its 1-based row number), "_key" (the row's identity)
and "<metric>/…" columns, with "<metric>/template_hash"; a failed row has "<metric>/error" and
"<metric>/error_kind" (rate-limit, server, timeout, network, auth, bad-request, invalid-reply, render,
cancelled, no-majority, quorum, internal). Reply fields beyond the schema go under "<metric>/extra".
A panel adds "<metric>/judges" (every judge's verdict, confidence, consistency and error kind) and
"<metric>/panel_agreement"; its verdict needs a strict majority of the whole panel (pairwise: else TIE;
pass/fail: else error_kind no-majority); scores take the median (mean in "<metric>/score_mean").
A template with dimensions (e.g. HHH) also gets "<metric>/rule_violations": a reply that breaks a
consistency rule is not a parse failure, so its verdict stands and the row counts as judged.
Unreadable dataset records are reported on stderr and skipped; they get no results line.
Exit codes: 0 all rows judged, 1 some rows failed or the run was interrupted, 2 bad usage or input
(also when no selected record could be read).
`;

const OPTIONS = {
  data: { type: 'string' },
  rows: { type: 'string' },
  ...ENDPOINT_OPTIONS,
  shard: { type: 'string' },
  model: { type: 'string' },
  structured: { type: 'string' },
  concurrency: { type: 'string' },
  timeout: { type: 'string' },
  retries: { type: 'string' },
  samples: { type: 'string' },
  judge: { type: 'string', multiple: true },
  ...PANEL_ENDPOINT_OPTIONS,
  'min-judges': { type: 'string' },
  'reask-on-violation': { type: 'boolean' },
  out: { type: 'string' },
  resume: { type: 'boolean' },
  'allow-template-change': { type: 'boolean' },
  overwrite: { type: 'boolean' },
  'max-outage': { type: 'string' },
  'no-cache': { type: 'boolean' },
  'cache-dir': { type: 'string' },
  price: { type: 'string' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  ...TIER_OPTIONS,
} as const;

/** How often the progress line is printed (ms); $JUDGE_STUDIO_PROGRESS_MS overrides it (tests shorten it). */
const PROGRESS_MS = 2_000;

export const runCommand: Command = async (args, io) => {
  const { values: v, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  if (v.help) {
    io.stdout(USAGE + TIER_USAGE);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError('expected exactly one template: judge-studio run <template> --data <file>');
  if (!v.data) throw new UsageError('--data <file> is required (a .jsonl, .json or .csv dataset)');
  const concurrency = int(v.concurrency, '--concurrency', 8, 1);
  const samples = int(v.samples, '--samples', 1, 1);
  const timeoutMs = int(v.timeout, '--timeout', 120_000, 1);
  const retries = int(v.retries, '--retries', DEFAULT_RETRY.retries, 0);
  const range = v.rows !== undefined ? parseRows(v.rows) : undefined;
  const shard = v.shard !== undefined ? parseShard(v.shard) : undefined;
  const rows = shard ? { ...range, shard } : range;
  const structured = parseStructured(v.structured);
  const prices = v.price !== undefined ? parsePrice(v.price) : undefined;
  parseHeaders(v.header ?? []); // bad usage is reported before any file is read
  const maxOutageMs = v['max-outage'] !== undefined ? parseDuration(v['max-outage'], '--max-outage') : undefined;
  if (v.resume && v.overwrite) throw new UsageError('--resume and --overwrite contradict each other; pick one');
  if (v['allow-template-change'] && !v.resume) throw new UsageError('--allow-template-change goes with --resume');
  const log = (m: string) => io.stderr(`judge-studio run: ${m}\n`);

  const templateFile = positionals[0]!;
  const loaded = await loadValidTemplate(templateFile, io);
  if (!loaded) return EXIT_USAGE;
  for (const d of loaded.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
  const reask = v['reask-on-violation'] === true;
  if (reask && loaded.template.config && !isDimensional(loaded.template.config)) {
    throw new UsageError(
      `--reask-on-violation applies to templates that declare dimensions; ${templateFile} has none, so there are no rules to re-ask about`,
    );
  }
  const judge = judgeFromTemplate(loaded.template, (c) => strategyFor(c, { reaskOnViolation: reask }));
  const { config, metric } = judge;

  const dataFile = await checkDataset(io.cwd, v.data);
  const named = parseEndpoints(v.endpoint ?? []);
  const members = panelRequest(v.judge, config, named);
  const keys = memberKeys(v, named, io.env, members !== undefined);
  const minJudges = v['min-judges'] !== undefined ? int(v['min-judges'], '--min-judges', 1, 1) : config.model.min_judges;
  if (members) {
    const refused = compositionError({ judge, panel: { members: members.map((m) => ({ settings: { model: m.model } })) } });
    if (refused) throw new UsageError(`${templateFile}: ${refused}`);
    if (v.model !== undefined) throw new UsageError('--model names one judge; with a panel (--judge or model.judges) name each member with --judge instead');
  } else if (minJudges !== undefined && v['min-judges'] !== undefined) {
    throw new UsageError('--min-judges needs a panel: name the members with --judge (repeatable) or model.judges in the template');
  }
  const model = members ? members.map((m) => m.model).join(', ') : (v.model ?? config.model.name);
  if (!model) throw new UsageError(`no model: pass --model or set model.name in ${templateFile}`);
  const tiers = tierSetup(v, model, parsePrice);
  const tierRefused = tiers && members ? compositionError({ judge, panel: { members: members.map((m) => ({ settings: { model: m.model } })) }, tiers: tiers }) : undefined;
  if (tierRefused) throw new UsageError(tierRefused);
  // A cached answer never gets the follow-up, so runs with and without it must not share entries.
  const endpoint = endpointFromArgs(v, io, reask ? 'reask-on-violation' : undefined);
  const { cacheScope, shownURL } = endpoint;
  if (samples > 1 && (config.model.temperature ?? 1) === 0) {
    log(`--samples ${samples} at temperature 0 will mostly repeat one answer; set model.temperature in the template to vary them`);
  }
  const settings = judgeSettings(config, model, structured);
  const cacheDir = v['cache-dir'] !== undefined ? path.resolve(io.cwd, v['cache-dir']) : defaultCacheDir(io.env);
  const cache = v['no-cache'] ? undefined : new DiskCache(cacheDir);
  const outFile = path.resolve(io.cwd, v.out ?? `${metric}.results.jsonl`);
  const outName = path.relative(io.cwd, outFile) || outFile;

  const datasetLog = (m: string) => log(`${v.data}: ${m}`);
  const signalOpt = io.signal ? { signal: io.signal } : {};

  if (v['dry-run']) {
    const scan = v.resume ? await scanResults(outFile, { metric, keyFields: judge.keyFields }) : undefined;
    scan?.warnings.forEach(log);
    const report = await dryRun({
      judge,
      settings,
      samples,
      cacheScope,
      log: datasetLog,
      items: readDataset(dataFile, signalOpt),
      ...(rows ? { rows } : {}),
      ...(scan ? { resume: scan } : {}),
      ...(cache ? { cache } : {}),
    });
    const meta = { model, baseURL: shownURL, prices };
    io.stderr(`${dryRunLines(report, meta).join('\n')}\n`);
    if (members) log(`a panel of ${members.length} judge(s): each judge sends the requests counted above (about ${members.length}× in all; the cache figures are for the run's own endpoint)`);
    if (v.json) io.stdout(`${JSON.stringify(dryRunJson(report, meta), null, 2)}\n`);
    return report.renderErrors > 0 ? EXIT_FINDINGS : EXIT_OK;
  }

  let panel: PanelBuild | undefined;
  if (members) {
    // One client per endpoint; the run's own base URL is only set up when a member uses it.
    panel = buildPanel(members, {
      runBaseURL: endpoint.baseURL,
      named,
      settings,
      quorum: minJudges,
      clientFor: (m) => endpoint.member(m, keys, { timeoutMs, log }),
    });
  }
  const client = panel ? panel.panel.members[0]!.client : endpoint.client({ timeoutMs, log });
  const stats = new RunStats();
  const mode = v.resume ? 'resume' : v.overwrite ? 'overwrite' : 'new';
  if (mode === 'overwrite' && (await fs.stat(outFile).then((s) => s.size > 0, () => false))) log(`--overwrite: starting ${outName} again`);
  const timer = setInterval(() => io.stderr(`${stats.progressLine()}\n`), Number(io.env.JUDGE_STUDIO_PROGRESS_MS) || PROGRESS_MS);
  timer.unref();
  const outageBaseMs = Number(io.env.JUDGE_STUDIO_OUTAGE_BASE_MS) || undefined; // tests shorten the pause
  let result;
  try {
    result = await runPipeline({
      judge,
      client,
      settings,
      dataFile,
      outFile,
      mode,
      allowTemplateChange: v['allow-template-change'] === true,
      samples,
      concurrency,
      stats,
      log,
      cacheScope,
      retry: { ...DEFAULT_RETRY, retries },
      outage: { ...(maxOutageMs !== undefined ? { maxOutageMs } : {}), ...(outageBaseMs ? { baseDelayMs: outageBaseMs, maxDelayMs: outageBaseMs * 4 } : {}) },
      onSkip: (skip) => datasetLog(skip.error),
      onStart: (s, scan) => {
        if (scan && scan.lines > 0) log(`resuming: ${scan.done.size} judged row(s) in ${outName} are kept, ${scan.failed.size} failed row(s) will be judged again`);
        const who = panel ? `a panel of ${panel.panel.members.length} judge(s) (${panel.described.join('; ')})` : `${model} at ${shownURL}`;
        log(`judging ${s.total} row(s) of ${v.data} with ${who} → ${outName}`);
      },
      ...(rows ? { rows } : {}),
      ...(cache ? { cache } : {}),
      ...(panel ? { panel: panel.panel } : {}),
      ...(tiers ? { tiers } : {}),
      ...signalOpt,
    });
  } catch (e) {
    if (e instanceof PipelineError) {
      if (e.code === 'results-exist') throw new UsageError(`${outName} already holds results; pass --resume to continue it, --overwrite to start it again, or choose another --out`);
      io.stderr(`judge-studio run: ${e.message}\n`);
      return EXIT_USAGE;
    }
    if (e instanceof JudgeError || !(e instanceof Error)) throw e;
    io.stderr(`judge-studio run: ${e.message}\n`);
    return EXIT_USAGE;
  } finally {
    clearInterval(timer);
  }
  io.stderr(`${stats.progressLine()}\n`);
  const meta = { model, baseURL: shownURL, prices, metric, interrupted: result.interrupted, stop: result.stop, out: outName, cacheDir: cache ? cacheDir : null };
  io.stderr(`${summaryLines(stats, meta).join('\n')}\n`);
  const tierPrices = { judge: prices, screen: tiers?.screenPrice };
  if (tiers) io.stderr(`${tierSummaryLines(tiers.stats, tierPrices).join('\n')}\n`);
  const hint = resumeHint(result, `judge-studio run ${templateFile} --data ${v.data}${v.shard !== undefined ? ` --shard ${v.shard}` : ''} --out ${outName}`);
  if (hint) log(hint);
  if (v.json) io.stdout(`${JSON.stringify({ ...summaryJson(stats, meta), ...(tiers ? { tiers: tierSummaryJson(tiers.stats, tierPrices) } : {}) }, null, 2)}\n`);
  if (result.nothingRead) {
    log(`${v.data}: ${result.nothingRead}`);
    return EXIT_USAGE;
  }
  return result.interrupted || stats.failed > 0 ? EXIT_FINDINGS : EXIT_OK;
};

function int(value: string | undefined, flag: string, fallback: number, min: number): number {
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
