// `judge-studio run`: judge every selected dataset row against an OpenAI-compatible endpoint,
// appending one results line per row as it finishes; progress and the summary go to stderr.
// `run --resume --out R` continues a run from the manifest beside R (runManifest.ts); the
// pipeline locks R, so a second writer exits 2.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { readDataset } from '../../core/dataset';
import { datasetFingerprint } from '../../core/results/shards';
import type { DatasetSkip } from '../../core/dataset/types';
import { defaultCacheDir, DiskCache } from '../../core/judge/engine/cache';
import { dryRun } from '../../core/judge/reports/dryRun';
import { isDimensional } from '../../core/judge/strategies/dimensions';
import { judgeFromTemplate, type PreparedJudge } from '../../core/judge/engine/prepare';
import { judgeSettings } from '../../core/judge/engine/settings';
import type { JudgeSettings } from '../../core/judge/engine/pass';
import { ResultsLockedError, withResultsLock } from '../../core/judge/run/lock';
import { scanResults } from '../../core/judge/run/scan';
import { PipelineError, resumeHint, runPipeline, type PipelineResult } from '../../core/judge/run/pipeline';
import { DEFAULT_RETRY } from '../../core/judge/transport/retry';
import type { RowRange } from '../../core/judge/run/runner';
import { RunStats } from '../../core/judge/run/stats';
import { strategyFor } from '../../core/judge/strategies/strategy';
import { dryRunJson, dryRunLines, summaryJson, summaryLines, type Prices } from '../../core/judge/reports/summary';
import { JudgeError } from '../../core/judge/transport/types';
import { endpointFromArgs, parseHeaders, type CliEndpoint, type MemberKeys } from '../endpoint';
import { formatDiagnostic } from '../format';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError } from '../io';
import type { CliIO, Command } from '../io';
import { loadValidTemplate } from '../template';
import { buildPanel, memberKeys, panelRequest, parseEndpoints, type MemberRequest, type PanelBuild } from '../panel';
import { compositionError } from '../../core/judge/engine/compose';
import { tierSetup, type TierSetup } from '../tiers';
import { RUN_OPTIONS } from '../options/judging';
import { tierSummaryJson, tierSummaryLines } from '../../core/judge/tiers/summary';
import { checkDataset, int, parseDuration, parsePrice, parseRows, parseShard, parseStructured } from '../runArgs';
import {
  buildManifest, checkSameEndpoint, continueCommand, endpointFlags, headerNames, readManifest, resumeFromManifest, writeManifest,
  type FlagValues, type RunManifest,
} from '../runManifest';

export { checkDataset, parseDuration, parsePrice, parseRows, parseShard, parseStructured } from '../runArgs';

const OPTIONS = RUN_OPTIONS;

const parse = (args: string[]) => parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
type Values = ReturnType<typeof parse>['values'];

/** How often the progress line is printed (ms); $JUDGE_STUDIO_PROGRESS_MS overrides it (tests shorten it). */
const PROGRESS_MS = 2_000;
/** Unreadable records printed one by one; the rest are counted. */
const SKIPS_SHOWN = 5;

export const runCommand: Command = async (args, io) => {
  const { values, positionals } = parse(args);
  if (positionals.length > 1) throw new UsageError('expected exactly one template: judge-studio run <template> --data <file>');
  const start = await fromManifest(values, positionals[0], io);
  const plan = await planRun(start.values, start.template, start.manifest, io);
  if (typeof plan === 'number') return plan;
  start.notes.forEach(plan.log);
  return plan.v['dry-run'] ? dryRunCommand(plan, io) : judgeCommand(plan, io);
};

interface Start {
  values: Values;
  template: string;
  manifest?: RunManifest | undefined;
  notes: string[];
}

/** `run --resume --out R` without a template: the template, --data and the run's flags from R's manifest. */
async function fromManifest(values: Values, template: string | undefined, io: CliIO): Promise<Start> {
  if (template !== undefined) return { values, template, notes: [] };
  if (!values.resume) throw new UsageError('expected exactly one template: judge-studio run <template> --data <file>');
  if (values.out === undefined) throw new UsageError('--resume without a template needs --out: the results file whose run to continue');
  const outFile = path.resolve(io.cwd, values.out);
  const manifest = await readManifest(outFile, values.out);
  if (!manifest) throw new UsageError(`${values.out} has no run manifest beside it (${values.out}.run.json); pass the template and --data to resume it`);
  const resumed = resumeFromManifest(manifest, { values, template: undefined, outFile, cwd: io.cwd, shown: values.out });
  return { values: checkTypes(resumed.values), template: resumed.template, manifest, notes: resumed.notes };
}

/** A manifest's values have the types the flags take (a hostile file cannot smuggle an object in). */
function checkTypes(v: FlagValues): Values {
  for (const [k, value] of Object.entries(v)) {
    const spec = (OPTIONS as Record<string, { type: string; multiple?: boolean }>)[k];
    const ok = spec && (spec.multiple ? Array.isArray(value) && value.every((x) => typeof x === spec.type) : typeof value === spec.type);
    if (value !== undefined && !ok) throw new UsageError(`the run manifest gives --${k} a value of the wrong kind; delete the manifest and pass the run's flags`);
  }
  return v as Values;
}

interface RunPlan {
  v: Values;
  templateFile: string;
  judge: PreparedJudge;
  dataFile: string;
  outFile: string;
  outName: string;
  model: string;
  members: MemberRequest[] | undefined;
  named: Map<string, string>;
  minJudges: number | undefined;
  /** Keys for panel endpoints other than --base-url (--endpoint-key, --trust-template-endpoints). */
  keys: MemberKeys;
  tiers: TierSetup | undefined;
  endpoint: CliEndpoint;
  settings: JudgeSettings;
  numbers: RunNumbers;
  cache: DiskCache | undefined;
  cacheDir: string;
  log: (m: string) => void;
}

interface RunNumbers {
  concurrency: number;
  samples: number;
  timeoutMs: number;
  retries: number;
  rows: RowRange | undefined;
  prices: Prices | undefined;
  maxOutageMs: number | undefined;
  maxReplyBytes: number | undefined;
}

/** Every flag checked before any file is read: bad usage is reported first. `--data` may come from a resume's manifest. */
function readNumbers(v: Values, dataLater = false): RunNumbers {
  if (!v.data && !dataLater) throw new UsageError('--data <file> is required (a .jsonl, .json or .csv dataset)');
  const range = v.rows !== undefined ? parseRows(v.rows) : undefined;
  const shard = v.shard !== undefined ? parseShard(v.shard) : undefined;
  parseStructured(v.structured);
  parseHeaders(v.header ?? []);
  if (v.resume && v.overwrite) throw new UsageError('--resume and --overwrite contradict each other; pick one');
  if (v['allow-template-change'] && !v.resume) throw new UsageError('--allow-template-change goes with --resume');
  return {
    concurrency: int(v.concurrency, '--concurrency', 8, 1),
    samples: int(v.samples, '--samples', 1, 1),
    timeoutMs: int(v.timeout, '--timeout', 120_000, 1),
    retries: int(v.retries, '--retries', DEFAULT_RETRY.retries, 0),
    rows: shard ? { ...range, shard } : range,
    prices: v.price !== undefined ? parsePrice(v.price) : undefined,
    maxOutageMs: v['max-outage'] !== undefined ? parseDuration(v['max-outage'], '--max-outage') : undefined,
    maxReplyBytes: v['max-reply-bytes'] !== undefined ? int(v['max-reply-bytes'], '--max-reply-bytes', 0, 1) : undefined,
  };
}

/** Template, judge, dataset, endpoint and results file of the run; EXIT_USAGE when the template has errors. */
async function planRun(v0: Values, templateFile: string, manifest0: RunManifest | undefined, io: CliIO): Promise<RunPlan | number> {
  const log = (m: string) => io.stderr(`judge-studio run: ${m}\n`);
  readNumbers(v0, v0.resume === true);
  const loaded = await loadValidTemplate(templateFile, io);
  if (!loaded) return EXIT_USAGE;
  for (const d of loaded.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
  const reask = v0['reask-on-violation'] === true;
  if (reask && loaded.template.config && !isDimensional(loaded.template.config)) {
    throw new UsageError(`--reask-on-violation applies to templates that declare dimensions; ${templateFile} has none, so there are no rules to re-ask about`);
  }
  const judge = judgeFromTemplate(loaded.template, (c) => strategyFor(c, { reaskOnViolation: reask }));
  const outFile = path.resolve(io.cwd, v0.out ?? `${judge.metric}.results.jsonl`);
  const outName = path.relative(io.cwd, outFile) || outFile;
  // `run T --resume [--out R]`: the flags the command line leaves out come from R's manifest.
  const manifest = manifest0 ?? (v0.resume ? await readManifest(outFile, outName) : undefined);
  let v = v0;
  if (manifest && !manifest0) {
    const resumed = resumeFromManifest(manifest, { values: v0, template: templateFile, outFile, cwd: io.cwd, shown: outName });
    v = checkTypes(resumed.values);
    resumed.notes.forEach(log);
  }
  const numbers = readNumbers(v);
  const dataFile = await checkDataset(io.cwd, v.data as string);
  const panelPart = panelFlags(v, judge, templateFile, io.env);
  const tiers = tierSetup(v, panelPart.model, parsePrice);
  // A panel is the judge a tiered run escalates to; core refuses what cannot work, for every front end.
  const refused = compositionError({ judge, ...(panelPart.members ? { panel: { members: panelPart.members.map((m) => ({ settings: { model: m.model } })) } } : {}), ...(tiers ? { tiers } : {}) });
  if (refused) throw new UsageError(`${templateFile}: ${refused}`);
  // A cached answer never gets the follow-up, so runs with and without it must not share entries.
  const endpoint = endpointFromArgs(v, io, reask ? 'reask-on-violation' : undefined);
  if (manifest && v.resume) checkSameEndpoint(manifest, { values: v, baseURL: endpoint.baseURL, shown: outName });
  if (numbers.samples > 1 && (judge.config.model.temperature ?? 1) === 0) {
    log(`--samples ${numbers.samples} at temperature 0 will mostly repeat one answer; set model.temperature in the template to vary them`);
  }
  const settings = judgeSettings(judge.config, panelPart.model, parseStructured(v.structured));
  const cacheDir = v['cache-dir'] !== undefined ? path.resolve(io.cwd, v['cache-dir']) : defaultCacheDir(io.env);
  const cache = v['no-cache'] ? undefined : new DiskCache(cacheDir);
  return { v, templateFile, judge, dataFile, outFile, outName, ...panelPart, tiers, endpoint, settings, numbers, cache, cacheDir, log };
}

/** The panel (from --judge or the template's model.judges) and the model name(s) of the run. */
function panelFlags(v: Values, judge: PreparedJudge, templateFile: string, env: CliIO['env']): Pick<RunPlan, 'members' | 'named' | 'minJudges' | 'model' | 'keys'> {
  const { config } = judge;
  const named = parseEndpoints(v.endpoint ?? []);
  const members = panelRequest(v.judge, config, named);
  const keys = memberKeys(v, named, env, members !== undefined);
  const minJudges = v['min-judges'] !== undefined ? int(v['min-judges'], '--min-judges', 1, 1) : config.model.min_judges;
  if (members) {
    if (v.model !== undefined) throw new UsageError('--model names one judge; with a panel (--judge or model.judges) name each member with --judge instead');
  } else if (minJudges !== undefined && v['min-judges'] !== undefined) {
    throw new UsageError('--min-judges needs a panel: name the members with --judge (repeatable) or model.judges in the template');
  }
  const model = members ? members.map((m) => m.model).join(', ') : (v.model ?? config.model.name);
  if (!model) throw new UsageError(`no model: pass --model or set model.name in ${templateFile}`);
  return { members, named, minJudges, model, keys };
}

async function dryRunCommand(p: RunPlan, io: CliIO): Promise<number> {
  const { v, judge, numbers } = p;
  let scan: Awaited<ReturnType<typeof scanResults>> | undefined;
  if (v.resume) {
    // The scan cuts a torn last line: only while no run is writing the file.
    scan = await withResultsLock(p.outFile, () => scanResults(p.outFile, { metric: judge.metric, keyFields: judge.keyFields }), { command: 'judge-studio run --dry-run' }).catch((e: unknown) => {
      if (e instanceof ResultsLockedError) throw new UsageError(e.message);
      throw e;
    });
    scan.warnings.forEach(p.log);
  }
  const report = await dryRun({
    judge,
    settings: p.settings,
    samples: numbers.samples,
    cacheScope: p.endpoint.cacheScope,
    log: (m) => p.log(`${v.data}: ${m}`),
    items: readDataset(p.dataFile, io.signal ? { signal: io.signal } : {}),
    ...(numbers.rows ? { rows: numbers.rows } : {}),
    ...(scan ? { resume: scan } : {}),
    ...(p.cache ? { cache: p.cache } : {}),
  });
  const meta = { model: p.model, baseURL: p.endpoint.shownURL, prices: numbers.prices };
  io.stderr(`${dryRunLines(report, meta).join('\n')}\n`);
  if (p.members) p.log(`a panel of ${p.members.length} judge(s): each judge sends the requests counted above (about ${p.members.length}× in all; the cache figures are for the run's own endpoint)`);
  if (v.json) io.stdout(`${JSON.stringify(dryRunJson(report, meta), null, 2)}\n`);
  return report.renderErrors > 0 ? EXIT_FINDINGS : EXIT_OK;
}

/** One client per endpoint; the run's own base URL is only set up when a member uses it. */
function panelFor(p: RunPlan): PanelBuild | undefined {
  if (!p.members) return undefined;
  return buildPanel(p.members, {
    runBaseURL: p.endpoint.baseURL,
    named: p.named,
    settings: p.settings,
    quorum: p.minJudges,
    clientFor: (m) => p.endpoint.member(m, p.keys, clientOptions(p)),
  });
}

function clientOptions(p: RunPlan): { timeoutMs: number; log: (m: string) => void; maxReplyBytes?: number } {
  return { timeoutMs: p.numbers.timeoutMs, log: p.log, ...(p.numbers.maxReplyBytes !== undefined ? { maxReplyBytes: p.numbers.maxReplyBytes } : {}) };
}

async function judgeCommand(p: RunPlan, io: CliIO): Promise<number> {
  const { v, numbers, log } = p;
  const panel = panelFor(p);
  const client = panel ? panel.panel.members[0]!.client : p.endpoint.client(clientOptions(p));
  const stats = new RunStats();
  const mode = v.resume ? 'resume' : v.overwrite ? 'overwrite' : 'new';
  const skips: DatasetSkip[] = [];
  const timer = setInterval(() => io.stderr(`${stats.progressLine()}\n`), Number(io.env.JUDGE_STUDIO_PROGRESS_MS) || PROGRESS_MS);
  timer.unref();
  const outageBaseMs = Number(io.env.JUDGE_STUDIO_OUTAGE_BASE_MS) || undefined; // tests shorten the pause
  let result: PipelineResult;
  try {
    result = await runPipeline({
      judge: p.judge,
      client,
      settings: p.settings,
      dataFile: p.dataFile,
      outFile: p.outFile,
      mode,
      allowTemplateChange: v['allow-template-change'] === true,
      keepRawReplies: v['keep-raw-replies'] === true,
      samples: numbers.samples,
      concurrency: numbers.concurrency,
      stats,
      log,
      cacheScope: p.endpoint.cacheScope,
      endpointURL: p.endpoint.shownURL,
      retry: { ...DEFAULT_RETRY, retries: numbers.retries },
      outage: { ...(numbers.maxOutageMs !== undefined ? { maxOutageMs: numbers.maxOutageMs } : {}), ...(outageBaseMs ? { baseDelayMs: outageBaseMs, maxDelayMs: outageBaseMs * 4 } : {}) },
      lockCommand: `judge-studio run ${p.templateFile} --data ${String(v.data)} --out ${p.outName}`,
      beforeJudging: async () => {
        if (mode === 'overwrite' && (await fs.stat(p.outFile).then((s) => s.size > 0, () => false))) log(`--overwrite: starting ${p.outName} again`);
        const shard = numbers.rows?.shard ? { ...numbers.rows.shard, dataset: await datasetFingerprint(readDataset(p.dataFile, io.signal ? { signal: io.signal } : {}), p.judge.keyFields) } : undefined;
        await writeManifest(p.outFile, buildManifest({ v, cwd: io.cwd, templateFile: path.resolve(io.cwd, p.templateFile), dataFile: p.dataFile, outFile: p.outFile, model: p.model, baseURL: p.endpoint.baseURL, templateHash: p.judge.templateHash, ...(shard ? { shard } : {}) }));
      },
      onSkip: (skip) => {
        if (skips.push(skip) <= SKIPS_SHOWN) log(`${v.data}: ${skip.error}`);
      },
      onStart: (s, scan) => {
        if (scan && scan.lines > 0) log(`resuming: ${scan.done.size} judged row(s) in ${p.outName} are kept, ${scan.failed.size} failed row(s) will be judged again`);
        const who = panel ? `a panel of ${panel.panel.members.length} judge(s) (${panel.described.join('; ')})` : `${p.model} at ${p.endpoint.shownURL}`;
        log(`judging ${s.total} row(s) of ${v.data} with ${who} → ${p.outName}`);
      },
      ...(numbers.rows ? { rows: numbers.rows } : {}),
      ...(p.cache ? { cache: p.cache } : {}),
      ...(panel ? { panel: panel.panel } : {}),
      ...(p.tiers ? { tiers: p.tiers } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
    });
  } catch (e) {
    return pipelineFailure(e, p, io);
  } finally {
    clearInterval(timer);
  }
  return report(p, result, stats, skips, io);
}

function pipelineFailure(e: unknown, p: RunPlan, io: CliIO): number {
  if (e instanceof PipelineError) {
    if (e.code === 'results-exist') throw new UsageError(`${p.outName} already holds results; pass --resume to continue it, --overwrite to start it again, or choose another --out`);
    io.stderr(`judge-studio run: ${e.message}\n`);
    return EXIT_USAGE;
  }
  if (e instanceof JudgeError || !(e instanceof Error)) throw e;
  io.stderr(`judge-studio run: ${e.message}\n`);
  return EXIT_USAGE;
}

/** The summary, the hint that continues an interrupted run, and the exit code. */
function report(p: RunPlan, result: PipelineResult, stats: RunStats, skips: DatasetSkip[], io: CliIO): number {
  const { v, log, numbers } = p;
  io.stderr(`${stats.progressLine()}\n`);
  const meta = { model: p.model, baseURL: p.endpoint.shownURL, prices: numbers.prices, metric: p.judge.metric, interrupted: result.interrupted, stop: result.stop, out: p.outName, cacheDir: p.cache ? p.cacheDir : null };
  io.stderr(`${summaryLines(stats, meta).join('\n')}\n`);
  const tierPrices = { judge: numbers.prices, screen: p.tiers?.screenPrice };
  if (p.tiers) io.stderr(`${tierSummaryLines(p.tiers.stats, tierPrices).join('\n')}\n`);
  const command = continueCommand({ endpoint: endpointFlags(v), cost: v, baseURL: p.endpoint.baseURL, templateFile: path.resolve(io.cwd, p.templateFile), dataFile: p.dataFile, outFile: p.outFile, cwd: io.cwd });
  const hint = resumeHint(result, command);
  if (hint) {
    log(hint);
    const headers = headerNames(v);
    if (headers.length) log(`add your --header flags again (${headers.join(', ')}): header values are never stored`);
  }
  if (v.json) io.stdout(`${JSON.stringify({ ...summaryJson(stats, meta), ...(p.tiers ? { tiers: tierSummaryJson(p.tiers.stats, tierPrices) } : {}) }, null, 2)}\n`);
  if (result.nothingRead) {
    log(`${v.data}: ${result.nothingRead}`);
    return EXIT_USAGE;
  }
  if (stats.skippedLines > 0 && !v['allow-skipped']) {
    const more = stats.skippedLines > SKIPS_SHOWN ? `; the first ${SKIPS_SHOWN}:` : ':';
    log(`${stats.skippedLines} record(s) of ${v.data} could not be read and were not judged${more} ${skips.slice(0, SKIPS_SHOWN).map((s) => s.error).join(' | ')}`);
    log('fix them and run again with --resume, or pass --allow-skipped to accept a run without them (exit 0)');
    return EXIT_FINDINGS;
  }
  return result.interrupted || stats.failed > 0 ? EXIT_FINDINGS : EXIT_OK;
}
