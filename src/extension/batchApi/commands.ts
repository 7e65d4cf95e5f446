// The Batch API commands behind the Provider Batches view (index.ts): submit, collect, refresh and
// cancel. Loaded on the first of them, with the openai SDK and the batch code (see esbuild.mjs).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { collectBatches, refreshStatus } from '../../core/batch/collect';
import { newJobState, stateDataFile } from '../../core/batch/job';
import { checkFingerprint, isTerminal, readState, writeState } from '../../core/batch/state';
import { submitBatches } from '../../core/batch/submit';
import { OpenAICompatibleClient } from '../../core/judge/transport/openaiClient';
import { prepareJudge } from '../../core/judge/engine/prepare';
import { judgeSettings } from '../../core/judge/engine/settings';
import { RunStats } from '../../core/judge/run/stats';
import { UNTRUSTED_MESSAGE } from '../providers/resolve';
import { runArgs, toUri } from '../run/commands';
import type { SampleChooser } from '../run/samples';
import { baseName, loadTemplate } from '../run/template';
import type { BatchesTree, JobNode } from '../sidebar/batches';
import type { Studio } from '../studio';
import { batchEndpoint } from './endpoint';
import { BATCHES_DIR, jobPhase, resultsFileFor, stateFileName } from './model';

export interface BatchCommands {
  submit(arg: unknown): Promise<string | undefined>;
  collect(node: JobNode | undefined): Promise<string | undefined>;
  refresh(): Promise<undefined>;
  cancel(node: JobNode | undefined): Promise<undefined>;
}

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
    if (!template) return undefined;
    const dataset = args?.dataset ? toUri(args.dataset) : await chooser.datasetForBatch(template);
    if (!dataset) return undefined;
    const loaded = await loadTemplate(studio, template);
    if (!loaded.ok) return fail(loaded.message);
    const { judge } = loaded;
    const endpoint = await batchEndpoint(studio, undefined, judge.config.model.name);
    if (!endpoint.ok) return fail(endpoint.message);
    if (!endpoint.model) return fail('no model for the batch: set judgeStudio.endpoint.model, or model.name in the template');
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
      settings: judgeSettings(judge.config, endpoint.model, endpoint.structured),
      ...(args?.rows ? { selection: args.rows } : {}),
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
      fail(`the batch submit stopped: ${(e as Error).message}. What was uploaded is kept in ${vscode.workspace.asRelativePath(stateFile)}.`);
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

  /** Downloads a finished job's results; invalid replies are repaired at once through the endpoint. */
  const collect = async (node: JobNode | undefined, quiet = false) => {
    if (!node || !trusted()) return undefined;
    const state = await readState(node.stateFile);
    const prepared = prepareJudge(state.template.text);
    if (!prepared.ok) return fail(`the template saved in ${path.basename(node.stateFile)} no longer validates`);
    const endpoint = await batchEndpoint(studio, state.baseURL);
    if (!endpoint.ok) return fail(endpoint.message);
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
      tree.refresh();
      if (quiet && stats.done === 0) return out;
      const more = report.pending ? ` · ${report.pending} row(s) still pending` : '';
      // Not awaited: a notification stays until dismissed, and a refresh must not wait for it.
      void vscode.window
        .showInformationMessage(`Judge Studio: ${state.metric} via Batch API: ${stats.done} row(s) collected (${stats.ok} ok, ${stats.failed} failed)${more}.`, 'Open Results')
        .then((choice) => (choice ? vscode.window.showTextDocument(vscode.Uri.file(out), { preview: false }) : undefined));
    } catch (e) {
      studio.log.error(`collecting ${node.stateFile} failed`, e);
      fail(`collecting the batch failed: ${(e as Error).message}`);
    }
    return out;
  };

  /** Asks the provider for every unfinished job's status; collects the jobs that are done. */
  const refresh = async () => {
    if (!trusted()) return undefined;
    for (const job of await tree.jobs()) {
      if (!job.state || !job.state.submitted || jobPhase(job.state) === 'collected') continue;
      const endpoint = await batchEndpoint(studio, job.state.baseURL);
      if (!endpoint.ok) {
        fail(endpoint.message);
        continue;
      }
      try {
        await refreshStatus(endpoint.api, job.state, job.stateFile);
      } catch (e) {
        studio.log.warn(`status of ${job.stateFile}: ${(e as Error).message}`);
        continue;
      }
      if (jobPhase(job.state) === 'ready') await collect(job, true);
    }
    tree.refresh();
    return undefined;
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

  return { submit, collect: (node) => collect(node), refresh, cancel };
}
