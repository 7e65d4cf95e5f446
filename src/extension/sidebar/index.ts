// The side panel: a tree view of the run history, refreshed whenever a history file changes.
import * as vscode from 'vscode';
import type { History } from '../run/history';
import { COMMANDS } from '../run/commands';
import type { Studio } from '../studio';
import { HISTORY_VIEW_ID, HistoryTree } from './tree';

export function registerSidebar(studio: Studio, history: History): HistoryTree {
  const tree = new HistoryTree(history);
  const view = vscode.window.createTreeView(HISTORY_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  studio.push(
    view,
    history.onDidChange(() => tree.refresh()),
    vscode.commands.registerCommand(COMMANDS.refreshHistory, () => tree.refresh()),
  );
  return tree;
}
