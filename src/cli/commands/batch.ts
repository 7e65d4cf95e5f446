// `judge-studio batch submit|status|collect|cancel`: a run through the provider's Batch API
// (OpenAI or Azure OpenAI), about half the price of `run`, finished within 24 h. The state file
// joins the four steps; `collect` writes the same results lines as `run`.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { ResultsLockedError } from '../../core/judge/run/lock';
import { batchApiFor, providerFailure, type BatchApi } from '../../core/batch/api';
import { collectBatches, CollectError, describeBatch, refreshStatus, type RepairMode } from '../../core/batch/collect';
import { batchPanelSpec, newJobState, stateDataFile } from '../../core/batch/job';
import { BatchStateError, checkFingerprint, isTerminal, readState, writeState, type BatchState, type PanelSpec } from '../../core/batch/state';
import { submitBatches, submitRepairs } from '../../core/batch/submit';
import { checkEndpoint, isCredentialHeader, redactUrl } from '../../core/judge/transport/endpoint';
import { OpenAICompatibleClient, type OpenAIClientOptions } from '../../core/judge/transport/openaiClient';
import { judgeFromTemplate, type PreparedJudge } from '../../core/judge/engine/prepare';
import { judgeOfState } from '../../core/batch/verify';
import { panelRequest } from '../panel';
import { judgeSettings } from '../../core/judge/engine/settings';
import { RunStats } from '../../core/judge/run/stats';
import { strategyFor } from '../../core/judge/strategies/strategy';
import { isDimensional } from '../../core/judge/strategies/dimensions';
import { summaryJson, summaryLines } from '../../core/judge/reports/summary';
import { formatDiagnostic } from '../format';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError } from '../io';
import type { CliIO, Command } from '../io';
import { loadValidTemplate } from '../template';
import { parseHeaders, stateEndpoint } from '../endpoint';
import { commandHelp } from '../options/flags';
import { BATCH, BATCH_OPTIONS } from '../options/judging';
import { checkDataset, parsePrice, parseRows, parseShard, parseStructured } from './run';

type Values = ReturnType<typeof parseArgs<{ args: string[]; options: typeof BATCH_OPTIONS; allowPositionals: true; strict: true }>>['values'];

export const batchCommand: Command = async (args, io) => {
  const { values: v, positionals } = parseArgs({ args, options: BATCH_OPTIONS, allowPositionals: true, strict: true });
  const [sub, ...rest] = positionals;
  if (!sub) {
    io.stdout(commandHelp(BATCH));
    return EXIT_USAGE;
  }
  if (!v.state) throw new UsageError('--state <file.json> is required: it joins submit, status, collect and cancel');
  const stateFile = path.resolve(io.cwd, v.state);
  const log = (m: string) => io.stderr(`judge-studio batch ${sub}: ${m}\n`);
  try {
    switch (sub) {
      case 'submit':
        return v.repairs ? await repairs(v, stateFile, io, log) : await submit(v, rest, stateFile, io, log);
      case 'status':
        return await status(v, stateFile, io);
      case 'collect':
        return await collect(v, stateFile, io, log);
      case 'cancel':
        return await cancel(v, stateFile, io, log);
      default:
        throw new UsageError(`unknown batch command "${sub}"; use submit, status, collect or cancel`);
    }
  } catch (e) {
    if (e instanceof BatchStateError || e instanceof CollectError || e instanceof ResultsLockedError) {
      log(e.message);
      return EXIT_USAGE;
    }
    // The provider refused or could not be reached: its (scrubbed) words, not a stack trace.
    const refused = providerFailure(e);
    if (refused !== undefined) {
      log(`the provider did not answer as expected: ${refused}; nothing more was done (run the command again once it answers)`);
      return EXIT_USAGE;
    }
    throw e;
  }
};

async function submit(v: Values, positionals: string[], stateFile: string, io: CliIO, log: (m: string) => void): Promise<number> {
  const existing = await readState(stateFile).catch((e: unknown) => (e instanceof BatchStateError && e.code === 'state-missing' ? undefined : Promise.reject(e)));
  if (existing?.submitted) {
    throw new UsageError(`${v.state} already holds a submitted job; follow it with batch status/collect, or choose another --state`);
  }
  if (positionals.length !== 1) throw new UsageError('expected exactly one template: judge-studio batch submit <template> --data <file> --state S.json');
  if (!v.data) throw new UsageError('--data <file> is required (a .jsonl, .json or .csv dataset)');
  if (v['reask-on-violation']) throw new UsageError('--reask-on-violation needs a conversation per reply; use run for it (a batch has no follow-ups)');
  const templateFile = positionals[0]!;
  const loaded = await loadValidTemplate(templateFile, io);
  if (!loaded) return EXIT_USAGE;
  for (const d of loaded.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
  const judge = judgeFromTemplate(loaded.template, (c) => strategyFor(c));
  if (loaded.template.config && isDimensional(loaded.template.config)) log('rule violations are reported as run reports them; follow-ups are not sent in a batch');
  const dataFile = await checkDataset(io.cwd, v.data);
  const baseURL = v['base-url'] ?? io.env.JUDGE_STUDIO_BASE_URL ?? io.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
  const panel = batchPanel(v, judge, templateFile, baseURL);
  const model = panel ? panel.members.map((m) => m.model).join(', ') : (v.model ?? judge.config.model.name);
  if (!model) throw new UsageError(`no model: pass --model (Azure: the deployment name) or set model.name in ${templateFile}`);
  const samples = v.samples !== undefined ? positiveInt(v.samples, '--samples') : 1;
  const range = v.rows !== undefined ? parseRows(v.rows) : undefined;
  const shard = v.shard !== undefined ? parseShard(v.shard) : undefined;
  const azure = v['azure-api-version'];
  const state: BatchState =
    existing ??
    (await newJobState({
      judge,
      templateFile: path.resolve(io.cwd, templateFile),
      dataFile,
      stateFile,
      baseURL,
      ...(azure !== undefined ? { azureApiVersion: azure } : {}),
      apiKeyEnv: v['api-key-env'] ?? 'OPENAI_API_KEY',
      ...(v.org !== undefined ? { organization: v.org } : {}),
      settings: judgeSettings(judge.config, model, parseStructured(v.structured)),
      maxTokensKey: v['max-completion-tokens'] ? 'max_completion_tokens' : 'max_tokens',
      samples,
      selection: { ...range, ...(shard ? { shard } : {}) },
      ...(panel ? { panel } : {}),
    }));
  if (existing) {
    if (existing.template.hash !== judge.templateHash) throw new UsageError(`${v.state} was started with template version ${existing.template.hash}; this template is ${judge.templateHash}`);
    await checkFingerprint(existing, dataFile);
    log(`continuing the interrupted submit in ${v.state} (${existing.batches.length} part(s) already uploaded)`);
  }
  const api = makeApi(state, v, io);
  await writeState(stateFile, state);
  const done = await submitBatches({ api, judge, state, stateFile, dataFile, log, ...(io.signal ? { signal: io.signal } : {}) });
  const mains = done.batches.filter((b) => b.kind === 'main');
  log(`${done.totals.requests} request(s) for ${done.totals.rows} row(s) in ${mains.length} batch(es); state in ${v.state}`);
  if (done.renderFailures.length > 0) log(`${done.renderFailures.length} row(s) could not be rendered; collect writes them as failed rows (render)`);
  if (v.json) io.stdout(`${JSON.stringify({ state: v.state, rows: done.totals.rows, requests: done.totals.requests, batches: mains.map((b) => b.id) }, null, 2)}\n`);
  return EXIT_OK;
}

/**
 * The panel a batch judges with (template model.judges or --judge), all at the batch's endpoint:
 * a provider batch goes to one endpoint, so a member naming another one is refused up front.
 */
function batchPanel(v: Values, judge: PreparedJudge, templateFile: string, baseURL: string): PanelSpec | undefined {
  const requests = panelRequest(v.judge, judge.config, new Map());
  const quorum = v['min-judges'] !== undefined ? positiveInt(v['min-judges'], '--min-judges') : judge.config.model.min_judges;
  if (!requests) {
    if (v['min-judges'] !== undefined) throw new UsageError('--min-judges needs a panel: name the members with --judge (repeatable) or model.judges in the template');
    return undefined;
  }
  if (v.model !== undefined) throw new UsageError('--model names one judge; with a panel (--judge or model.judges) name each member with --judge instead');
  const spec = batchPanelSpec(judge, requests, baseURL, quorum);
  if (!spec.ok) throw new UsageError(`${templateFile}: ${spec.message}`);
  return spec.panel;
}

async function repairs(v: Values, stateFile: string, io: CliIO, log: (m: string) => void): Promise<number> {
  const { state, judge, dataFile } = await load(stateFile);
  const n = await submitRepairs({ api: makeApi(state, v, io), judge, state, stateFile, dataFile, log, ...(io.signal ? { signal: io.signal } : {}) });
  log(n === 0 ? 'no invalid replies wait for a repair (batch collect finds them)' : `${n} repair request(s) submitted; batch collect adds their rows when they finish`);
  return EXIT_OK;
}

async function status(v: Values, stateFile: string, io: CliIO): Promise<number> {
  const state = await readState(stateFile);
  await refreshStatus(makeApi(state, v, io), state, stateFile, io.signal);
  const queued = state.repairs.filter((r) => r.part === undefined).length;
  if (v.json) {
    const batches = state.batches.map((b) => ({ part: b.part, kind: b.kind, id: b.id ?? null, status: b.status ?? null, request_counts: b.requestCounts ?? null, rows: b.rows, requests: b.requests }));
    io.stdout(`${JSON.stringify({ metric: state.metric, submitted: state.submitted, done: state.batches.every(isTerminal), batches, repairs_queued: queued }, null, 2)}\n`);
  } else {
    for (const b of state.batches) io.stdout(`${describeBatch(b)}\n`);
    if (!state.submitted) io.stdout('submit was interrupted: run batch submit again with the same --state to send the rest\n');
    if (queued > 0) io.stdout(`${queued} invalid repl${queued === 1 ? 'y waits' : 'ies wait'} for batch submit --repairs (or collect --repair-sync)\n`);
  }
  return EXIT_OK;
}

async function collect(v: Values, stateFile: string, io: CliIO, log: (m: string) => void): Promise<number> {
  if (v['repair-sync'] && v['no-repair']) throw new UsageError('--repair-sync and --no-repair contradict each other; pick one');
  const prices = v.price !== undefined ? parsePrice(v.price) : undefined;
  const { state, judge, dataFile } = await load(stateFile);
  await checkFingerprint(state, dataFile);
  const outFile = path.resolve(io.cwd, v.out ?? `${state.metric}.results.jsonl`);
  const outName = path.relative(io.cwd, outFile) || outFile;
  const repair: RepairMode = v['repair-sync'] ? 'sync' : v['no-repair'] ? 'none' : 'batch';
  const stats = new RunStats();
  const maxReplyBytes = v['max-reply-bytes'] !== undefined ? positiveInt(v['max-reply-bytes'], '--max-reply-bytes') : undefined;
  const report = await collectBatches({
    api: makeApi(state, v, io),
    ...(maxReplyBytes !== undefined ? { maxReplyBytes } : {}),
    judge,
    state,
    stateFile,
    dataFile,
    outFile,
    repair,
    stats,
    log,
    ...(repair === 'sync' ? { client: new OpenAICompatibleClient(clientOptions(state, v, io)) } : {}),
    ...(io.signal ? { signal: io.signal } : {}),
  });
  stats.total = stats.done + report.pending;
  const meta = { model: state.settings.model, baseURL: state.baseURL, prices, metric: state.metric, interrupted: false, out: outName, cacheDir: null };
  io.stderr(`${summaryLines(stats, meta).join('\n')}\n`);
  if (report.alreadyWritten) log(`${report.alreadyWritten} row(s) were already in ${outName}`);
  if (report.pending) log(`${report.pending} row(s) still pending: their batch is running${report.repairsQueued ? ' or waits for a repair' : ''}; run collect again later`);
  if (report.repairsQueued) log(`${report.repairsQueued} invalid repl${report.repairsQueued === 1 ? 'y needs' : 'ies need'} a repair: batch submit --repairs --state ${v.state} (or collect --repair-sync)`);
  if (v.json) io.stdout(`${JSON.stringify({ ...summaryJson(stats, meta), pending: report.pending, repairs_queued: report.repairsQueued, already_written: report.alreadyWritten }, null, 2)}\n`);
  return report.pending > 0 || stats.failed > 0 ? EXIT_FINDINGS : EXIT_OK;
}

async function cancel(v: Values, stateFile: string, io: CliIO, log: (m: string) => void): Promise<number> {
  const state = await readState(stateFile);
  const api = makeApi(state, v, io);
  let n = 0;
  for (const b of state.batches) {
    if (!b.id || isTerminal(b)) continue;
    const remote = await api.cancel(b.id, io.signal);
    b.status = remote.status;
    n++;
    await writeState(stateFile, state);
  }
  log(n === 0 ? 'no unfinished batch to cancel' : `${n} batch(es) cancelling; collect keeps the requests they finished`);
  return EXIT_OK;
}

/** The state, checked (template snapshot, metric), with its judge prepared and its dataset path resolved. */
async function load(stateFile: string): Promise<{ state: BatchState; judge: PreparedJudge; dataFile: string }> {
  const state = await readState(stateFile);
  const judge = judgeOfState(state, stateFile);
  return { state, judge, dataFile: stateDataFile(state, stateFile) };
}

function clientOptions(state: BatchState, v: Values, io: CliIO): OpenAIClientOptions {
  // The state's base URL and key variable must be the command line's: a state file never picks them.
  const { keyEnv } = stateEndpoint(state, v, io, v.state ?? 'the state file');
  const apiKey = io.env[keyEnv] || undefined;
  const headers = parseHeaders(v.header ?? []);
  if (!apiKey && (state.provider === 'azure' || new URL(state.baseURL).hostname === 'api.openai.com')) {
    throw new UsageError(`${redactUrl(state.baseURL)} needs an API key: set ${keyEnv} (or name another variable with --api-key-env)`);
  }
  const check = checkEndpoint(state.baseURL, { sendsCredentials: apiKey !== undefined || Object.keys(headers).some(isCredentialHeader), allowInsecureHttp: v['allow-insecure-http'] === true });
  if (!check.ok) throw new UsageError(check.message);
  return {
    baseURL: state.baseURL,
    timeoutMs: v.timeout !== undefined ? positiveInt(v.timeout, '--timeout') : 300_000,
    ...(v['max-reply-bytes'] !== undefined ? { maxReplyBytes: positiveInt(v['max-reply-bytes'], '--max-reply-bytes') } : {}),
    headers,
    apiKeyEnv: keyEnv,
    ...(apiKey ? { apiKey } : {}),
    ...(state.organization !== undefined ? { organization: state.organization } : {}),
    ...(state.azureApiVersion !== undefined ? { azureApiVersion: state.azureApiVersion } : {}),
  };
}

function makeApi(state: BatchState, v: Values, io: CliIO): BatchApi {
  try {
    return batchApiFor(clientOptions(state, v, io));
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag} needs an integer ≥ 1, got "${value}"`);
  return n;
}

