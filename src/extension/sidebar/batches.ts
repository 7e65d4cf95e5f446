// The "Provider Batches" view: every batch job whose state file is under .judge-studio/batches/ in
// a workspace folder, with its status as last refreshed. State lives in those files, so the view
// is the same after a reload; "Refresh" asks the provider again (see batchApi/index.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readState, type BatchState } from '../../core/batch/state';
import { BATCHES_DIR, jobView, resultsFileFor, type JobPhase } from '../batchApi/model';

export const BATCHES_VIEW_ID = 'judgeStudio.providerBatches';

export const BATCH_COMMANDS = {
  runViaBatch: 'judgeStudio.runJudgeOnDatasetViaBatch',
  refresh: 'judgeStudio.refreshProviderBatches',
  collect: 'judgeStudio.collectProviderBatch',
  cancel: 'judgeStudio.cancelProviderBatch',
} as const;

export interface JobNode {
  type: 'job';
  stateFile: string;
  state?: BatchState;
  /** Why the state file could not be read. */
  error?: string;
}
type Node = JobNode | { type: 'line'; text: string; id: string };

const ICONS: Record<JobPhase, string> = {
  submitting: 'debug-pause',
  running: 'sync',
  repairing: 'sync',
  ready: 'cloud-download',
  collected: 'pass',
};

export class BatchesTree implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  refresh(): void {
    this.changed.fire(undefined);
  }

  dispose(): void {
    this.changed.dispose();
  }

  /** Every job in every workspace folder, newest first. */
  async jobs(): Promise<JobNode[]> {
    const out: JobNode[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const dir = vscode.Uri.joinPath(folder.uri, ...BATCHES_DIR.split('/'));
      let entries: [string, vscode.FileType][] = [];
      try {
        entries = await vscode.workspace.fs.readDirectory(dir);
      } catch {
        continue; // no batches in this folder
      }
      for (const [name, type] of entries) {
        if (type !== vscode.FileType.File || !name.endsWith('.json')) continue;
        const stateFile = vscode.Uri.joinPath(dir, name).fsPath;
        try {
          out.push({ type: 'job', stateFile, state: await readState(stateFile) });
        } catch (e) {
          out.push({ type: 'job', stateFile, error: (e as Error).message });
        }
      }
    }
    return out.sort((a, b) => (b.state?.createdAt ?? '').localeCompare(a.state?.createdAt ?? ''));
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (!node) return this.jobs();
    if (node.type === 'job' && node.state) {
      return jobView(node.state, path.basename(node.state.data.path)).details.map((text, i) => ({ type: 'line', text, id: `${node.stateFile}#${i}` }));
    }
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.type === 'line') {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.id = node.id;
      return item;
    }
    if (!node.state) {
      const item = new vscode.TreeItem(path.basename(node.stateFile), vscode.TreeItemCollapsibleState.None);
      item.description = 'unreadable state file';
      item.tooltip = node.error ?? '';
      item.iconPath = new vscode.ThemeIcon('error');
      return item;
    }
    const view = jobView(node.state, path.basename(node.state.data.path));
    const item = new vscode.TreeItem(view.label, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `job:${node.stateFile}`;
    item.description = view.description;
    item.tooltip = `${view.label}\n${view.description}\nState: ${vscode.workspace.asRelativePath(node.stateFile)}\n${view.details.join('\n')}`;
    item.iconPath = new vscode.ThemeIcon(ICONS[view.phase]);
    item.contextValue = `providerBatch.${view.phase}`;
    if (view.phase === 'collected') item.command = { command: 'vscode.open', title: 'Open Results', arguments: [vscode.Uri.file(resultsFileFor(node.stateFile))] };
    else if (view.phase === 'ready') item.command = { command: BATCH_COMMANDS.collect, title: 'Collect Batch Results', arguments: [node] };
    return item;
  }
}
