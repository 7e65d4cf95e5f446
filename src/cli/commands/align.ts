// `judge-studio align <template> --data <results or dataset> --metric M`: candidate edits drawn
// from the rows where the judge disagrees with the human labels, each judged on held-out rows
// and reported with its interval, McNemar's p and an overfit flag; the best one is named.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { AlignInputError, defaultOutDir, formatAlignReport, loadLabelled, runAlign, type AlignRun, type LoadedRows, type LoadOptions } from '../../core/align';
import { readDataset } from '../../core/dataset';
import { defaultCacheDir, DiskCache } from '../../core/judge/engine/cache';
import { judgeFromTemplate } from '../../core/judge/engine/prepare';
import { judgeSettings, type JudgeSettings } from '../../core/judge/engine/settings';
import { isDimensional } from '../../core/judge/strategies/dimensions';
import { PipelineError } from '../../core/judge/run/pipeline';
import type { LabelLine } from '../../core/labels';
import { latestPerRow } from '../../core/results';
import { endpointFromArgs, type CliEndpoint } from '../endpoint';
import { ALIGN_OPTIONS } from '../options/judging';
import { formatDiagnostic } from '../format';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError, type CliIO, type Command } from '../io';
import { buildPanel, memberKeys, panelRequest, parseEndpoints, type MemberRequest, type PanelBuild } from '../panel';
import { loadValidTemplate } from '../template';
import { readLabelsFile } from './labels';
import { checkDataset, parseStructured } from './run';

export const alignCommand: Command = async (args, io) => {
  const { values: v, positionals } = parseArgs({ args, options: ALIGN_OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new UsageError('expected exactly one template: judge-studio align <template> --data <file> --metric M');
  if (!v.data) throw new UsageError('--data <file> is required: a results file or a dataset with human labels');
  const { share, seed, maxExamples, count, budget, concurrency, timeoutMs, structured } = numbers(v);
  const log = (m: string) => io.stderr(`judge-studio align: ${m}\n`);

  const templateFile = positionals[0]!;
  const loaded = await loadValidTemplate(templateFile, io);
  if (!loaded) return EXIT_USAGE;
  for (const d of loaded.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
  const judge = judgeFromTemplate(loaded.template);
  const { config } = judge;
  const metric = v.metric?.trim() || judge.metric;
  if (metric !== judge.metric) {
    throw new UsageError(`--metric ${metric}: ${templateFile} judges "${judge.metric}"; align compares the template's verdicts with that metric's labels, so the names must match`);
  }
  if (isDimensional(config)) throw new UsageError(`${templateFile} declares dimensions; align works with single-verdict pointwise and pairwise templates`);
  const dataFile = await checkDataset(io.cwd, v.data);

  const named = parseEndpoints(v.endpoint ?? []);
  const members = panelRequest(v.judge, config, named);
  if (members && v.model !== undefined) throw new UsageError('--model names one judge; with a panel (--judge or model.judges) name each member with --judge instead');
  const model = members ? members[0]!.model : (v.model ?? config.model.name);
  if (!model) throw new UsageError(`no model: pass --model or set model.name in ${templateFile}`);
  const endpoint = endpointFromArgs(v, io);
  const settings = judgeSettings(config, model, structured);
  const panel = members ? cliPanel(members, v, io, settings, endpoint, named, timeoutMs, log, config.model.min_judges) : undefined;
  const rows = await readRows(io, dataFile, v.data, v.labels, { metric, kind: config.kind, keyFields: judge.keyFields }, log);

  const client = panel ? panel.panel.members[0]!.client : endpoint.client({ timeoutMs, log });
  const cacheDir = v['cache-dir'] !== undefined ? path.resolve(io.cwd, v['cache-dir']) : defaultCacheDir(io.env);
  const templatePath = path.resolve(io.cwd, templateFile);
  const outDir = v['out-dir'] !== undefined ? path.resolve(io.cwd, v['out-dir']) : defaultOutDir(templatePath);
  const rel = (f: string) => path.relative(io.cwd, f) || f;
  log(`aligning ${judge.metric} with ${rows.rows.length} labelled row(s) of ${v.data} using ${panel ? `a panel of ${panel.panel.members.length} judge(s)` : `${model} at ${endpoint.shownURL}`} → ${rel(outDir)}/`);
  let last = '';
  let run: AlignRun;
  try {
    run = await runAlign({
      judge,
      templateFile: templatePath,
      dataFile,
      loaded: rows,
      client,
      settings,
      ...(panel ? { panel: panel.panel } : {}),
      ...(v['author-model'] !== undefined ? { authorModel: v['author-model'] } : {}),
      ...(v['no-cache'] ? {} : { cache: new DiskCache(cacheDir) }),
      cacheScope: endpoint.cacheScope,
      concurrency,
      outDir,
      share,
      seed,
      maxExamples,
      candidates: count,
      ...(budget !== undefined ? { budget } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
      log,
      shown: rel,
      onProgress: (p) => {
        const step = p.id === 'author' ? 'drafting candidates' : `${p.id === 'baseline' ? 'current template' : p.id} on ${p.part === 'train' ? 'train' : 'held-out'} rows`;
        if (step !== last) log(step);
        last = step;
      },
    });
  } catch (e) {
    if (e instanceof AlignInputError) throw new UsageError(`${v.data}: ${e.message}`);
    if (e instanceof PipelineError) throw new UsageError(e.message);
    throw e;
  }
  io.stdout(v.json ? `${JSON.stringify(run.report, null, 2)}\n` : formatAlignReport(run.report));
  log(`wrote ${rel(run.reportFile)}`);
  return run.report.best && !run.report.interrupted ? EXIT_OK : EXIT_FINDINGS;
};

type Values = ReturnType<typeof parseArgs<{ args: string[]; options: typeof ALIGN_OPTIONS; allowPositionals: true; strict: true }>>['values'];

/** The labelled rows of the data, with the labels file joined; what was left out is said on stderr. */
async function readRows(io: CliIO, dataFile: string, shown: string, labelsFile: string | undefined, o: Omit<LoadOptions, 'labels'>, log: (m: string) => void): Promise<LoadedRows> {
  let labels: LabelLine[] | undefined;
  if (labelsFile !== undefined) labels = (await readLabelsFile(io, labelsFile)).lines;
  const rows = await loadLabelled(latestPerRow(() => readDataset(dataFile, io.signal ? { signal: io.signal } : {})), { ...o, ...(labels ? { labels } : {}) });
  if (rows.unreadable > 0) log(`${shown}: ${rows.unreadable} unreadable record(s) skipped`);
  if (rows.invalidLabel > 0) log(`${shown}: ${rows.invalidLabel} row(s) with a human label that is not a ${o.kind === 'pointwise' ? 'number' : 'A, B or TIE'} are left out`);
  if (rows.duplicateKey > 0) log(`${shown}: ${rows.duplicateKey} row(s) repeat the inputs of an earlier row and are left out (one case, one label)`);
  return rows;
}

/** The numeric and mode flags, each checked where it enters. */
function numbers(v: Values) {
  const share = v.split === undefined ? 0.5 : Number(v.split);
  if (!(share > 0 && share < 1)) throw new UsageError(`--split takes the held-out share, between 0 and 1 (e.g. 0.5), got "${v.split}"`);
  return {
    share,
    seed: int(v.seed, '--seed', 1, 0),
    maxExamples: int(v['max-examples'], '--max-examples', 4, 1),
    count: int(v.candidates, '--candidates', 3, 1),
    budget: v.budget === undefined ? undefined : int(v.budget, '--budget', 0, 1),
    concurrency: int(v.concurrency, '--concurrency', 8, 1),
    timeoutMs: int(v.timeout, '--timeout', 120_000, 1),
    structured: parseStructured(v.structured),
  };
}

/** A panel of judges as `run` builds it: one client per endpoint, under the same key rules. */
function cliPanel(
  members: MemberRequest[],
  v: Values,
  io: CliIO,
  settings: JudgeSettings,
  endpoint: CliEndpoint,
  named: Map<string, string>,
  timeoutMs: number,
  log: (m: string) => void,
  templateQuorum: number | undefined,
): PanelBuild {
  const minJudges = v['min-judges'] !== undefined ? int(v['min-judges'], '--min-judges', 1, 1) : templateQuorum;
  return buildPanel(members, {
    runBaseURL: endpoint.baseURL,
    named,
    settings,
    quorum: minJudges,
    // The same key policy as run: another endpoint gets a key only from --endpoint-key or --trust-template-endpoints.
    clientFor: (m) => endpoint.member(m, memberKeys(v, named, io.env, true), { timeoutMs, log }),
  });
}

function int(value: string | undefined, flag: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) throw new UsageError(`${flag} needs an integer ≥ ${min}, got "${value}"`);
  return n;
}
