// The file the person is looking at: the active text editor's, else the active tab's (a results
// file open in the Results Viewer, or a large file open without a text editor).
import * as vscode from 'vscode';

export function activeFileUri(): vscode.Uri | undefined {
  const editor = vscode.window.activeTextEditor?.document.uri;
  if (editor) return editor;
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom ? input.uri : undefined;
}
