// The "Run History" view in the Judge Studio activity-bar container: per template, the last
// batch's summary and every run (time, model, sample, verdict, consistency), newest first.
// Clicking a run reopens it in the run view; clicking a batch opens its results file.
import * as vscode from 'vscode';
import type { History, HistoryFile } from '../run/history';
import { shortTime, type BatchEntry, type HistoryEntry, type RunEntry } from '../run/model/history';
import { summaryLines } from '../run/model/summary';
import { COMMANDS } from '../run/commands';

export const HISTORY_VIEW_ID = 'judgeStudio.history';
/** Runs listed per template; older ones stay in the file. */
const MAX_RUNS = 50;

type Node =
  | { type: 'template'; file: HistoryFile }
  | { type: 'batch'; entry: BatchEntry; root: vscode.Uri; latest: boolean }
  | { type: 'line'; text: string; id: string }
  | { type: 'run'; entry: RunEntry };

export class HistoryTree implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly history: History) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (!node) {
      const files = (await this.history.files()).filter((f) => f.entries.length > 0);
      // Templates run most recently come first.
      return files.sort((a, b) => lastTime(b).localeCompare(lastTime(a))).map((file) => ({ type: 'template', file }));
    }
    if (node.type === 'template') {
      const entries = [...node.file.entries].reverse();
      const batches = entries.filter((e): e is BatchEntry => e.type === 'batch');
      const runs = entries.filter((e): e is RunEntry => e.type === 'run').slice(0, MAX_RUNS);
      const out: Node[] = [];
      const [latest, ...older] = batches;
      if (latest) out.push({ type: 'batch', entry: latest, root: node.file.root, latest: true });
      out.push(...runs.map((entry): Node => ({ type: 'run', entry })));
      out.push(...older.map((entry): Node => ({ type: 'batch', entry, root: node.file.root, latest: false })));
      return out;
    }
    if (node.type === 'batch') {
      const lines = summaryLines(node.entry.summary).slice(1);
      const rows = node.entry.rows;
      if (rows.alreadyDone) lines.push(`${rows.alreadyDone} row(s) kept from the interrupted run`);
      if (rows.skipped) lines.push(`${rows.skipped} unreadable dataset record(s) skipped`);
      if (node.entry.interrupted) lines.push('interrupted: run on the dataset again and choose Resume');
      return lines.map((text, i) => ({ type: 'line', text, id: `${node.entry.id}#${i}` }));
    }
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.type) {
      case 'template': {
        const item = new vscode.TreeItem(node.file.metric, vscode.TreeItemCollapsibleState.Expanded);
        const runs = node.file.entries.filter((e) => e.type === 'run').length;
        const batches = node.file.entries.length - runs;
        item.id = `template:${node.file.file.toString()}`;
        item.description = [runs && `${runs} run${runs === 1 ? '' : 's'}`, batches && `${batches} batch${batches === 1 ? '' : 'es'}`].filter(Boolean).join(' · ');
        item.tooltip = `History in ${vscode.workspace.asRelativePath(node.file.file)}`;
        item.iconPath = new vscode.ThemeIcon('law');
        item.contextValue = 'template';
        return item;
      }
      case 'batch': {
        const e = node.entry;
        const headline = summaryLines(e.summary)[0] ?? '';
        const item = new vscode.TreeItem(node.latest ? `Last batch: ${e.dataset}` : `Batch: ${e.dataset}`, node.latest ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `batch:${e.id}`;
        item.description = `${shortTime(e.time)} · ${e.model} · ${headline}`;
        item.tooltip = `${e.metric} on ${e.dataset} with ${e.model}\n${summaryLines(e.summary).join('\n')}\nResults: ${e.results}${e.interrupted ? '\nInterrupted.' : ''}`;
        item.iconPath = new vscode.ThemeIcon(e.interrupted ? 'debug-pause' : 'table');
        item.command = { command: 'vscode.open', title: 'Open Results', arguments: [this.history.resolve(node.root, e.results)] };
        item.contextValue = 'batch';
        return item;
      }
      case 'line': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        return item;
      }
      case 'run':
        return runItem(node.entry);
    }
  }
}

function runItem(e: RunEntry): vscode.TreeItem {
  const violations = Array.isArray(e.line[`${e.metric}/rule_violations`]) ? (e.line[`${e.metric}/rule_violations`] as unknown[]).length : 0;
  const label = [e.verdict, e.consistency, violations ? `${violations} rule violation${violations === 1 ? '' : 's'}` : null].filter(Boolean).join(' · ');
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.id = `run:${e.id}`;
  item.description = `${shortTime(e.time)} · ${e.model} · ${e.source}`;
  item.tooltip = `${e.metric}: ${label}\n${new Date(e.time).toLocaleString()} · ${e.model}\nSample: ${e.source}${e.note ? ` (${e.note})` : ''}`;
  item.iconPath = new vscode.ThemeIcon(e.verdict === 'error' ? 'error' : e.consistency === 'position-inconsistent' || violations ? 'warning' : 'pass');
  item.command = { command: COMMANDS.openHistoryEntry, title: 'Open in Run View', arguments: [e.id] };
  item.contextValue = 'run';
  return item;
}

function lastTime(f: HistoryFile): string {
  return f.entries.reduce((t, e: HistoryEntry) => (e.time > t ? e.time : t), '');
}
