// The results viewer (a custom editor for results files) and its commands.
import * as vscode from 'vscode';
import type { Studio } from '../studio';
import { RESULTS_VIEW_TYPE, ResultsEditorProvider } from './editor';
import { openResults, trackResultsDocuments } from './open';
import { activeFileUri } from '../activeFile';

export const OPEN_RESULTS_COMMAND = 'judgeStudio.openResultsViewer';
export const OPEN_RESULTS_AS_TEXT_COMMAND = 'judgeStudio.openResultsAsText';

export function registerResults(studio: Studio): void {
  const target = (arg: unknown): vscode.Uri | undefined => {
    if (arg instanceof vscode.Uri) return arg;
    if (typeof arg === 'string') return vscode.Uri.file(arg);
    return activeFileUri();
  };
  studio.push(
    trackResultsDocuments(),
    vscode.window.registerCustomEditorProvider(RESULTS_VIEW_TYPE, new ResultsEditorProvider(studio), {
      webviewOptions: { retainContextWhenHidden: false },
      supportsMultipleEditorsPerDocument: true,
    }),
    vscode.commands.registerCommand(OPEN_RESULTS_COMMAND, async (arg: unknown) => {
      const uri = target(arg);
      if (!uri) return void vscode.window.showInformationMessage('Judge Studio: open a results .jsonl file first.');
      await openResults(uri);
    }),
    vscode.commands.registerCommand(OPEN_RESULTS_AS_TEXT_COMMAND, async (arg: unknown) => {
      const uri = target(arg);
      if (uri) await vscode.commands.executeCommand('vscode.openWith', uri, 'default');
    }),
  );
}
