// The Batch API commands behind the Provider Batches view (index.ts): submit, collect, refresh and
// cancel. Loaded on the first of them, with the openai SDK and the batch code (see esbuild.mjs).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { collectBatches, refreshStatus } from '../../core/batch/collect';
import { batchPanelSpec, newJobState, stateDataFile } from '../../core/batch/job';
import { checkFingerprint, isTerminal, readState, writeState } from '../../core/batch/state';
import { submitBatches } from '../../core/batch/submit';
import { OpenAICompatibleClient } from '../../core/judge/transport/openaiClient';
import { prepareJudge } from '../../core/judge/engine/prepare';
import { judgeSettings } from '../../core/judge/engine/settings';
import { RunStats } from '../../core/judge/run/stats';
import { UNTRUSTED_MESSAGE } from '../providers/resolve';
import { notDone } from '../notDone';
import { openResults } from '../results/open';
import { runArgs, toUri } from '../run/commands';
import type { SampleChooser } from '../run/samples';
import { baseName, loadTemplate } from '../run/template';
import { BATCHES_VIEW_ID, type BatchesTree, type JobNode } from '../sidebar/batches';
import type { Studio } from '../studio';
import { batchEndpoint } from './endpoint';
import { BATCHES_DIR, batchErrorMessage, jobPhase, refreshSummary, requestProgress, resultsFileFor, stateFileName, type RefreshOutcome } from './model';

export interface BatchCommands {
  submit(arg: unknown): Promise<string | undefined>;
  collect(node: JobNode | undefined): Promise<string | undefined>;
  refresh(): Promise<RefreshOutcome[] | undefined>;
  cancel(node: JobNode | undefined): Promise<undefined>;
}

const SUBMIT = 'Run on Dataset via Batch API';

export function batchCommands(studio: Studio, tree: BatchesTree, chooser: SampleChooser): BatchCommands {
  const fail = (m: string) => void vscode.window.showErrorMessage(`Judge Studio: ${m}`);
  const trusted = () => {
    if (!vscode.workspace.isTrusted) fail(UNTRUSTED_MESSAGE);
    return vscode.workspace.isTrusted;
  };

  const submit = async (arg: unknown) => {
    if (!trusted()) return undefined;
    const args = runArgs(arg);
    const template = args?.template ? toUri(args.template) : await chooser.template();
    if (!template) return notDone(studio.log, SUBMIT, 'no template was chosen');
    const dataset = args?.dataset ? toUri(args.dataset) : await chooser.datasetForBatch(template);
    if (!dataset) return notDone(studio.log, SUBMIT, `no dataset was chosen for ${baseName(template)}`);
    const loaded = await loadTemplate(studio, template);
    if (!loaded.ok) return fail(loaded.message);
    const { judge } = loaded;
    const endpoint = await batchEndpoint(studio, undefined, judge.config.model.name);
    if (!endpoint.ok) return fail(endpoint.message);
    // A template's panel is judged at this endpoint, one part per judge, as `batch submit` does.
    const judges = judge.config.model.judges;
    const panel = judges ? batchPanelSpec(judge, judges, endpoint.options.baseURL, judge.config.model.min_judges) : undefined;
    if (panel && !panel.ok) return fail(panel.message);
    const model = panel?.ok ? panel.panel.members.map((m) => m.model).join(', ') : endpoint.model;
    if (!model) return fail('no model for the batch: set judgeStudio.endpoint.model, or model.name in the template');
    const root = vscode.workspace.getWorkspaceFolder(template)?.uri ?? vscode.workspace.workspaceFolders?.[0]?.uri;
    if (!root) return fail('open a folder first: batch state files are kept in its .judge-studio/batches/');
    const stateFile = path.join(root.fsPath, ...BATCHES_DIR.split('/'), stateFileName(judge.metric, new Date()));
    await fs.mkdir(path.dirname(stateFile), { recursive: true });
    const state = await newJobState({
      judge,
      templateFile: template.fsPath,
      dataFile: dataset.fsPath,
      stateFile,
      baseURL: endpoint.options.baseURL,
      settings: judgeSettings(judge.config, model, endpoint.structured),
      ...(args?.rows ? { selection: args.rows } : {}),
      ...(panel?.ok ? { panel: panel.panel } : {}),
    });
    await writeState(stateFile, state);
    tree.refresh();
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Judge Studio: submitting ${judge.metric} on ${baseName(dataset)} to the Batch API`, cancellable: true },
        async (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          await submitBatches({ api: endpoint.api, judge, state, stateFile, dataFile: dataset.fsPath, signal: abort.signal, log: (m) => progress.report({ message: m }) });
        },
      );
    } catch (e) {
      studio.log.error(`batch submit of ${judge.metric} failed`, e);
      fail(`the batch submit stopped: ${batchErrorMessage(e, endpoint.options.baseURL)}. What was uploaded is kept in ${vscode.workspace.asRelativePath(stateFile)}.`);
      return stateFile;
    } finally {
      tree.refresh();
    }
    const parts = state.batches.length;
    void vscode.window.showInformationMessage(
      `Judge Studio: ${state.totals.requests} request(s) for ${state.totals.rows} row(s) sent in ${parts} batch${parts === 1 ? '' : 'es'}. Refresh the Provider Batches view to follow them; results are collected when they are done.`,
    );
    return stateFile;
  };

  /** Downloads a finished job's results (invalid replies repaired at once through the endpoint); throws what went wrong, in words. */
  const collectJob = async (node: JobNode): Promise<{ out: string; done: number; ok: number; failed: number; pending: number }> => {
    const state = await readState(node.stateFile);
    const prepared = prepareJudge(state.template.text);
    if (!prepared.ok) throw new Error(`the template saved in ${path.basename(node.stateFile)} no longer validates`);
    const endpoint = await batchEndpoint(studio, state.baseURL);
    if (!endpoint.ok) throw new Error(endpoint.message);
    const dataFile = stateDataFile(state, node.stateFile);
    const out = resultsFileFor(node.stateFile);
    const stats = new RunStats();
    try {
      await checkFingerprint(state, dataFile);
      const report = await collectBatches({
        api: endpoint.api,
        judge: prepared.judge,
        state,
        stateFile: node.stateFile,
        dataFile,
        outFile: out,
        repair: 'sync',
        client: new OpenAICompatibleClient({ ...endpoint.options, timeoutMs: 60_000, log: (m) => studio.log.info(m) }),
        stats,
        log: (m) => studio.log.info(`batch ${state.metric}: ${m}`),
      });
      return { out, done: stats.done, ok: stats.ok, failed: stats.failed, pending: report.pending };
    } catch (e) {
      studio.log.error(`collecting ${node.stateFile} failed`, e);
      throw new Error(batchErrorMessage(e, state.baseURL));
    } finally {
      tree.refresh();
    }
  };

  const collect = async (node: JobNode | undefined) => {
    if (!node || !trusted()) return undefined;
    try {
      const r = await collectJob(node);
      const more = r.pending ? ` · ${r.pending} row(s) still pending` : '';
      // Not awaited: a notification stays until dismissed, and the command must not wait for it.
      void vscode.window
        .showInformationMessage(`Judge Studio: ${node.state?.metric ?? 'batch'} via Batch API: ${r.done} row(s) collected (${r.ok} ok, ${r.failed} failed)${more}.`, 'Open Results')
        .then((choice) => (choice ? openResults(vscode.Uri.file(r.out)) : undefined));
      return r.out;
    } catch (e) {
      fail(`collecting the batch failed: ${(e as Error).message}`);
      return resultsFileFor(node.stateFile);
    }
  };

  /** Asks the provider for every unfinished job's status, collects the jobs that are done, and says what it found. */
  const refresh = async () => {
    if (!trusted()) return undefined;
    const outcomes: RefreshOutcome[] = [];
    const opened: string[] = [];
    let skipped = 0;
    await vscode.window.withProgress({ location: { viewId: BATCHES_VIEW_ID }, title: 'Asking the provider' }, async () => {
      for (const job of await tree.jobs()) {
        if (!job.state || !job.state.submitted || jobPhase(job.state) === 'collected') {
          skipped++;
          continue;
        }
        const metric = job.state.metric;
        const endpoint = await batchEndpoint(studio, job.state.baseURL);
        if (!endpoint.ok) {
          outcomes.push({ metric, error: endpoint.message });
          continue;
        }
        try {
          await refreshStatus(endpoint.api, job.state, job.stateFile);
          let collected: number | undefined;
          if (jobPhase(job.state) === 'ready') {
            const r = await collectJob(job);
            collected = r.done;
            if (r.done) opened.push(r.out);
          }
          const state = await readState(job.stateFile);
          const phase = jobPhase(state);
          outcomes.push({ metric, phase, ...(phase === 'running' ? { progress: requestProgress(state) } : {}), ...(collected ? { collected } : {}) });
        } catch (e) {
          studio.log.warn(`status of ${job.stateFile}: ${(e as Error).message}`);
          outcomes.push({ metric, error: batchErrorMessage(e, job.state.baseURL) });
        }
      }
    });
    tree.refresh();
    const text = refreshSummary(outcomes, skipped);
    const show = outcomes.some((o) => o.error) ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    // Not awaited: the command is done once the view is up to date.
    void show(text, ...(opened.length === 1 ? ['Open Results'] : [])).then((choice) => (choice && opened[0] ? openResults(vscode.Uri.file(opened[0])) : undefined));
    return outcomes;
  };

  const cancel = async (node: JobNode | undefined) => {
    if (!node?.state || !trusted()) return undefined;
    const endpoint = await batchEndpoint(studio, node.state.baseURL);
    if (!endpoint.ok) return fail(endpoint.message);
    const state = await readState(node.stateFile);
    for (const b of state.batches) {
      if (!b.id || isTerminal(b)) continue;
      b.status = (await endpoint.api.cancel(b.id)).status;
      await writeState(node.stateFile, state);
    }
    tree.refresh();
    void vscode.window.showInformationMessage('Judge Studio: the unfinished batches are cancelling; refresh later to collect what they finished.');
    return undefined;
  };

  return { submit, collect, refresh, cancel };
}
