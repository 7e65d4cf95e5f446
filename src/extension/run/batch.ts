// "Run Judge on Dataset": every row of a dataset through the engine's batch runner (its
// concurrency, cache and resume), with a cancellable progress notification; the results file
// opens in the Results Viewer at the end and the summary goes to the history (and so to the side panel).
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readDataset } from '../../core/dataset';
import { isSkip } from '../../core/dataset/types';
import { snapshotTemplate } from '../../core/compare/snapshots';
import { defaultCacheDir, DiskCache } from '../../core/judge/engine/cache';
import { latestPerRow } from '../../core/results/latest';
import { templateVerdictKind } from '../../core/results/verdict';
import { PipelineError, runPipeline, type PipelineResult } from '../../core/judge/run/pipeline';
import type { RowRange } from '../../core/judge/run/runner';
import { RunStats } from '../../core/judge/run/stats';
import { panelAsJudge, resolvePanel } from '../providers/panel';
import { readSettings, resolveJudge, type ResolveOutcome } from '../providers/resolve';
import type { Studio } from '../studio';
import { settingsFor } from './controller';
import type { History } from './history';
import { openResults } from '../results/open';
import { showBatchEnd } from './batchEnd';
import { entryId, RESULTS_DIR, resultsFileName, resumable, staysInside, type BatchEntry } from './model/history';
import { SummaryBuilder, summaryLines, type BatchSummary } from './model/summary';
import { baseName, loadTemplate, scaleOf } from './template';

export interface BatchRequest {
  template: vscode.Uri;
  dataset: vscode.Uri;
  /** true: resume the last interrupted batch of this template and dataset; a URI: resume that results file; false: start over; undefined: ask. */
  resume?: boolean | vscode.Uri;
  rows?: RowRange;
  /** Open the results file when done (default true). */
  open?: boolean;
  /** Resume a results file written by another version of the template. */
  allowTemplateChange?: boolean;
}

export async function runBatch(studio: Studio, history: History, req: BatchRequest): Promise<BatchEntry | undefined> {
  const loaded = await loadTemplate(studio, req.template);
  if (!loaded.ok) {
    void vscode.window.showErrorMessage(`Judge Studio: ${loaded.message}`);
    return undefined;
  }
  const { judge } = loaded;
  const root = history.rootFor(req.template);
  const templateRel = history.relative(root, req.template);
  const datasetRel = history.relative(root, req.dataset);

  // A template with `model.judges` runs its panel: each member at its endpoint with that origin's key.
  const panel = judge.config.model.judges ? await resolvePanel(studio, judge.config, settingsFor(judge, '', readSettings().structured)) : undefined;
  if (panel && !panel.ok) {
    void vscode.window.showErrorMessage(`Judge Studio: ${panel.message}`);
    return undefined;
  }
  const resolved: ResolveOutcome = panel?.ok ? panelAsJudge(panel, readSettings().structured) : await resolveJudge(studio, { template: judge.config, interactive: true });
  if (!resolved.ok) return undefined;

  let resultsFile: vscode.Uri | undefined = req.resume instanceof vscode.Uri ? req.resume : undefined;
  if (req.resume !== false && !resultsFile) {
    const entries = (await history.files()).filter((f) => f.root.toString() === root.toString()).flatMap((f) => f.entries);
    const last = resumable(entries, templateRel, datasetRel);
    if (last) {
      const choice =
        req.resume === true
          ? 'Resume'
          : // Modal: a toast hides itself within seconds and nothing runs until it is answered.
            await vscode.window.showInformationMessage(
              `The last run of ${judge.metric} on ${datasetRel} stopped after ${last.rows.judged + last.rows.alreadyDone} row(s). Resume it or start over?`,
              {
                modal: true,
                detail: `Resume judges only the rows still missing (and the ones that failed), appending to ${last.results}. Start Over judges every row into a new results file.`,
              },
              'Resume',
              'Start Over',
            );
      if (choice === undefined) return undefined;
      if (choice === 'Resume') resultsFile = history.resolve(root, last.results);
    }
  }
  const resumed = resultsFile !== undefined;
  const started = new Date();
  resultsFile ??= vscode.Uri.joinPath(root, ...RESULTS_DIR.split('/'), resultsFileName(judge.metric, started, req.dataset.path));
  const out = resultsFile.fsPath;
  // Resume appends: never to a file outside the folder the history lives in.
  if (!staysInside(root.fsPath, out)) {
    void vscode.window.showErrorMessage(`Judge Studio: refusing to resume ${out}: it is outside ${root.fsPath}. Start the run over instead.`);
    return undefined;
  }
  await fs.mkdir(path.dirname(out), { recursive: true });

  // The compare view's "Show Template Diff" opens the exact text every hash judged with.
  await snapshotTemplate(root.fsPath, judge.template.text).catch((e: unknown) => studio.log.warn(`could not keep a snapshot of ${templateRel}: ${(e as Error).message}`));

  const stats = new RunStats();
  const abort = new AbortController();
  let result: PipelineResult | undefined;
  let fatal: string | undefined;
  let changed: string | undefined;
  let locked: string | undefined;

  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Judge Studio: ${judge.metric} on ${baseName(req.dataset)}`, cancellable: true },
    async (progress, token) => {
      token.onCancellationRequested(() => abort.abort());
      let step = 0;
      const report = (increment = 0) => {
        const total = stats.total ?? 0;
        const failed = stats.failed ? ` · ${stats.failed} failed` : '';
        const outage = stats.outage ? ` · endpoint failing, paused${stats.outageNote().replace(/^.*paused/, '')}` : '';
        progress.report({ increment, message: `${stats.done}/${total} rows${failed}${outage}` });
      };
      try {
        result = await runPipeline({
          judge,
          client: resolved.judge.client,
          settings: settingsFor(judge, resolved.judge.model, resolved.judge.settings.structured),
          dataFile: req.dataset.fsPath,
          outFile: out,
          mode: resumed ? 'resume' : 'overwrite',
          allowTemplateChange: req.allowTemplateChange === true,
          concurrency: resolved.judge.settings.concurrency,
          cache: new DiskCache(defaultCacheDir(process.env)),
          cacheScope: resolved.judge.cacheScope,
          ...(req.rows ? { rows: req.rows } : {}),
          ...(panel?.ok ? { panel: panel.panel } : {}),
          signal: abort.signal,
          lockCommand: `VS Code: Run Judge on Dataset (${templateRel} on ${datasetRel})`,
          stats,
          log: (m) => studio.log.warn(`batch ${judge.metric}: ${m}`),
          onSkip: (skip) => studio.log.warn(`${datasetRel}, row ${skip.row}: ${skip.error}`),
          onStart: (s) => {
            step = s.total ? 100 / s.total : 0;
            report();
          },
          // The runner counts a row just after writing it: report once the count includes this one.
          onLine: () => queueMicrotask(() => report(step)),
          onOutage: () => report(),
        });
      } catch (e) {
        if (e instanceof PipelineError && e.code === 'resume-template-changed') changed = e.message;
        else if (e instanceof PipelineError && e.code === 'results-locked') locked = e.message;
        else fatal = (e as Error).message;
      }
    },
  );
  // Another run (the CLI, another window) is writing the file: nothing was written, nothing to record.
  if (locked !== undefined) {
    void vscode.window.showErrorMessage(`Judge Studio: ${locked}`);
    return undefined;
  }
  if (changed !== undefined) {
    const choice = await vscode.window.showWarningMessage(`Judge Studio: ${changed.replace(/ \(CLI: [^)]*\)/, '')}`, { modal: true }, 'Start Over', 'Resume Anyway');
    if (choice === undefined) return undefined;
    return runBatch(studio, history, { ...req, resume: choice === 'Start Over' ? false : resultsFile, allowTemplateChange: choice === 'Resume Anyway' });
  }
  const interrupted = result?.interrupted ?? fatal !== undefined;

  const summary = await summarizeFile(out, new SummaryBuilder(judge.metric, templateVerdictKind(judge.config), scaleOf(judge) ?? undefined, judge.config.labels));
  const entry: BatchEntry = {
    v: 1,
    type: 'batch',
    id: entryId(started, randomBytes(3).toString('hex')),
    time: started.toISOString(),
    template: templateRel,
    metric: judge.metric,
    kind: judge.config.kind,
    model: resolved.judge.model,
    dataset: datasetRel,
    results: history.relative(root, resultsFile),
    resumed,
    interrupted,
    rows: { judged: stats.done, ok: stats.ok, failed: stats.failed, skipped: stats.skippedLines, alreadyDone: stats.alreadyDone },
    summary,
    elapsedMs: Date.now() - started.getTime(),
  };
  await history.append(root, entry);
  if (req.open !== false) await openResults(resultsFile);

  const headline = summaryLines(summary)[0] ?? '';
  const ended = result?.stop;
  const problem = fatal
    ? `it could not run: ${fatal}`
    : result?.nothingRead
      ? `${datasetRel}: ${result.nothingRead} (the Judge Studio log lists each record)`
      : ended === 'write-failed'
        ? `it could not write (${result?.writeError}); free space first`
        : ended === 'outage'
          ? `the endpoint kept failing for longer than allowed (${headline}); when it is back`
          : ended === 'unreachable'
            ? 'the endpoint was never reached (no request got an answer); check its base URL with Configure Endpoint and that the server is running, then'
            : undefined;
  if (stats.retriedFailed) studio.log.info(`batch ${judge.metric}: ${stats.retriedFailed} failed row(s) judged again`);
  void showBatchEnd(entry, resultsFile, problem);
  return entry;
}

/** Streams the results file into the summary, the last line per `_row` standing; unreadable lines (a torn last line) are left out. */
async function summarizeFile(file: string, builder: SummaryBuilder): Promise<BatchSummary> {
  try {
    for await (const item of latestPerRow(() => readDataset(file))) if (!isSkip(item)) builder.add(item.record);
  } catch {
    // no results file: nothing was judged
  }
  return builder.result();
}

