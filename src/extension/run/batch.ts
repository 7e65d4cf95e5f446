// "Run Judge on Dataset": every row of a dataset through the engine's batch runner (its
// concurrency, cache and resume), with a cancellable progress notification; the results file
// opens at the end and the summary goes to the history (and so to the side panel).
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import * as vscode from 'vscode';
import { readDataset } from '../../core/dataset';
import { isSkip } from '../../core/dataset/types';
import { defaultCacheDir, DiskCache } from '../../core/judge/cache';
import { ResultsWriter, scanResults } from '../../core/judge/results';
import { inRange, runJudge, type RowRange } from '../../core/judge/runner';
import { RunStats } from '../../core/judge/stats';
import { resolveJudge } from '../providers/resolve';
import type { Studio } from '../studio';
import { settingsFor } from './controller';
import type { History } from './history';
import { entryId, RESULTS_DIR, resultsFileName, resumable, type BatchEntry } from './model/history';
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

  const resolved = await resolveJudge(studio, { template: judge.config, interactive: true });
  if (!resolved.ok) return undefined;

  let resultsFile: vscode.Uri | undefined = req.resume instanceof vscode.Uri ? req.resume : undefined;
  if (req.resume !== false && !resultsFile) {
    const entries = (await history.files()).filter((f) => f.root.toString() === root.toString()).flatMap((f) => f.entries);
    const last = resumable(entries, templateRel, datasetRel);
    if (last) {
      const choice =
        req.resume === true
          ? 'Resume'
          : await vscode.window.showInformationMessage(
              `The last run of ${judge.metric} on ${datasetRel} was interrupted after ${last.rows.judged + last.rows.alreadyDone} row(s). Resume it (judge only the missing rows) or start over?`,
              'Resume',
              'Start Over',
            );
      if (choice === undefined) return undefined;
      if (choice === 'Resume') resultsFile = history.resolve(root, last.results);
    }
  }
  const resumed = resultsFile !== undefined;
  const started = new Date();
  resultsFile ??= vscode.Uri.joinPath(root, ...RESULTS_DIR.split('/'), resultsFileName(judge.metric, started));
  const out = resultsFile.fsPath;
  await fs.mkdir(path.dirname(out), { recursive: true });

  const scan = resumed ? await scanResults(out) : undefined;
  scan?.warnings.forEach((w) => studio.log.warn(w));
  const total = await countRows(req.dataset.fsPath, req.rows, scan?.done);
  const stats = new RunStats();
  stats.total = total;
  const abort = new AbortController();
  let fatal: string | undefined;
  let interrupted = false;

  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Judge Studio: ${judge.metric} on ${baseName(req.dataset)}`, cancellable: true },
    async (progress, token) => {
      token.onCancellationRequested(() => abort.abort());
      const writer = new ResultsWriter(out, !resumed);
      let written = 0;
      let failed = 0;
      const step = total > 0 ? 100 / total : 0;
      progress.report({ message: `0/${total} rows` });
      try {
        const result = await runJudge({
          judge,
          client: resolved.judge.client,
          settings: settingsFor(judge, resolved.judge.model, resolved.judge.settings.structured),
          items: readDataset(req.dataset.fsPath, { signal: abort.signal }),
          write: (line) => {
            writer.write(line);
            written++;
            if (typeof line[`${judge.metric}/error`] === 'string') failed++;
            progress.report({ increment: step, message: `${written}/${total} rows${failed ? ` · ${failed} failed` : ''}` });
          },
          concurrency: resolved.judge.settings.concurrency,
          cache: new DiskCache(defaultCacheDir(process.env)),
          cacheScope: resolved.judge.client.id,
          ...(req.rows ? { rows: req.rows } : {}),
          ...(scan ? { done: scan.done } : {}),
          signal: abort.signal,
          stats,
          log: (m) => studio.log.warn(`batch ${judge.metric}: ${m}`),
          onSkip: (skip) => studio.log.warn(`${datasetRel}, row ${skip.row}: ${skip.error}`),
        });
        interrupted = result.interrupted;
      } catch (e) {
        interrupted = abort.signal.aborted;
        if (!interrupted) fatal = (e as Error).message;
      } finally {
        writer.close();
      }
    },
  );

  const summary = await summarizeFile(out, new SummaryBuilder(judge.metric, judge.config.kind, scaleOf(judge) ?? undefined));
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
    interrupted: interrupted || fatal !== undefined,
    rows: { judged: stats.done, ok: stats.ok, failed: stats.failed, skipped: stats.skippedLines, alreadyDone: stats.alreadyDone },
    summary,
    elapsedMs: Date.now() - started.getTime(),
  };
  await history.append(root, entry);
  if (req.open !== false) await vscode.window.showTextDocument(resultsFile, { preview: false, preserveFocus: false });

  const headline = summaryLines(summary)[0] ?? '';
  if (fatal) void vscode.window.showErrorMessage(`Judge Studio: the batch stopped: ${fatal}. ${entry.rows.judged} row(s) were written to ${entry.results}; run it again and choose Resume to finish.`);
  else if (entry.interrupted) void vscode.window.showWarningMessage(`Judge Studio: cancelled after ${stats.done} row(s) (${headline}). Run on the dataset again and choose Resume to finish.`);
  else void vscode.window.showInformationMessage(`Judge Studio: ${judge.metric} on ${datasetRel}: ${headline}${stats.skippedLines ? ` · ${stats.skippedLines} unreadable record(s) skipped (see the log)` : ''}.`);
  return entry;
}

/** Rows the batch will judge: readable rows in range, minus those already in the results file. */
async function countRows(file: string, rows: RowRange | undefined, done: ReadonlySet<number> | undefined): Promise<number> {
  let n = 0;
  try {
    for await (const item of readDataset(file)) {
      if (rows?.to !== undefined && item.row > rows.to) break;
      if (!isSkip(item) && inRange(item.row, rows) && !done?.has(item.row)) n++;
    }
  } catch {
    // The runner reads the file again and reports what is wrong with it.
  }
  return n;
}

/** Streams the results file into the summary; lines that are not JSON (a torn last line) are left out. */
async function summarizeFile(file: string, builder: SummaryBuilder): Promise<BatchSummary> {
  try {
    const input = readline.createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    for await (const text of input) {
      if (text.trim() === '') continue;
      try {
        builder.add(JSON.parse(text) as Record<string, unknown>);
      } catch {
        // a torn line from a hard kill; scanResults trims it on the next resume
      }
    }
  } catch {
    // no results file: nothing was judged
  }
  return builder.result();
}
