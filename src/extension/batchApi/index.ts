// "Run on Dataset via Batch API" and the Provider Batches view: submit through the provider's
// Batch API, follow each job's status on demand, collect its results when it is done. Everything
// a job needs is in its state file under .judge-studio/batches/, so jobs outlive a reload.
// The commands themselves (commands.ts) load on first use.
import * as vscode from 'vscode';
import { SampleChooser } from '../run/samples';
import { BATCH_COMMANDS, BATCHES_VIEW_ID, BatchesTree, type JobNode } from '../sidebar/batches';
import type { Studio } from '../studio';
import type { BatchCommands } from './commands';

export function registerProviderBatches(studio: Studio): void {
  const tree = new BatchesTree();
  const chooser = new SampleChooser(studio, studio.samples);
  const view = vscode.window.createTreeView(BATCHES_VIEW_ID, { treeDataProvider: tree });
  let loaded: Promise<BatchCommands> | undefined;
  const commands = () => (loaded ??= import('./commands').then((m) => m.batchCommands(studio, tree, chooser)));

  studio.push(
    tree,
    chooser,
    view,
    vscode.commands.registerCommand(BATCH_COMMANDS.runViaBatch, async (arg: unknown) => (await commands()).submit(arg)),
    vscode.commands.registerCommand(BATCH_COMMANDS.refresh, async () => (await commands()).refresh()),
    vscode.commands.registerCommand(BATCH_COMMANDS.collect, async (node?: JobNode) => (await commands()).collect(node)),
    vscode.commands.registerCommand(BATCH_COMMANDS.cancel, async (node?: JobNode) => (await commands()).cancel(node)),
  );
}
