// The side panel: a tree view of the run history, refreshed whenever a history file changes;
// two batches selected in it open in the compare view.
import * as vscode from 'vscode';
import type { History } from '../run/history';
import { COMMANDS } from '../run/commands';
import type { Studio } from '../studio';
import { compareFromHistory, COMPARE_HISTORY_COMMAND } from './compare';
import { HISTORY_VIEW_ID, HistoryTree } from './tree';

export function registerSidebar(studio: Studio, history: History): HistoryTree {
  const tree = new HistoryTree(history);
  const view = vscode.window.createTreeView(HISTORY_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true, canSelectMany: true });
  studio.push(
    view,
    history.onDidChange(() => tree.refresh()),
    vscode.commands.registerCommand(COMMANDS.refreshHistory, () => tree.refresh()),
    // Select two batches (Ctrl/Cmd+click), then Compare Runs in their context menu or the view's title.
    vscode.commands.registerCommand(COMPARE_HISTORY_COMMAND, (clicked?: unknown, selected?: unknown) => compareFromHistory(studio.log, history, view.selection, clicked, selected)),
  );
  return tree;
}
