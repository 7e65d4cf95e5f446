// Opening a results file the way a person wants to read it: in the Results Viewer (its table, the
// verdict chart, the failures by kind), with "Open as Text" one click away in its title bar.
import * as vscode from 'vscode';
import { reloadResultsViewers, RESULTS_VIEW_TYPE, resultsViewersOf } from './editor';
import { isResultsFile } from './model/detect';

/**
 * Context key: the paths of open documents that are results files, as `resourcePath` gives them
 * (the file-system path on this machine; the URI's path when the window is remote), so both are listed.
 */
export const RESULTS_FILES_CONTEXT = 'judgeStudio.resultsFiles';

export async function openResults(file: vscode.Uri, options: { preview?: boolean; viewColumn?: vscode.ViewColumn } = {}): Promise<void> {
  const before = resultsViewersOf(file);
  await vscode.commands.executeCommand('vscode.openWith', file, RESULTS_VIEW_TYPE, { preview: options.preview ?? false, viewColumn: options.viewColumn ?? vscode.ViewColumn.Active });
  // A viewer already showing the file is only revealed: have it read what was written since. A new
  // one reads the file as it opens, so it is not asked to read it twice.
  if (before.size > 0) reloadResultsViewers(file, before);
}

/** Whether an open text document is a results file: by name, else by its first non-blank line. */
export function isResultsDocument(doc: vscode.TextDocument): boolean {
  if (doc.uri.scheme !== 'file') return false;
  function* lines(): Iterable<string> {
    for (let i = 0; i < doc.lineCount; i++) yield doc.lineAt(i).text;
  }
  return isResultsFile(doc.uri.path, lines());
}

/**
 * Keeps the context key in step with the open documents, so the editor-title button "Open in
 * Results Viewer" appears for every results file, whatever its name.
 */
export function trackResultsDocuments(): vscode.Disposable {
  /** Document URI → the paths `resourcePath` may show it as. */
  const known = new Map<string, string[]>();
  let pending: NodeJS.Timeout | undefined;
  const publish = () => {
    if (pending) clearTimeout(pending);
    pending = setTimeout(() => void vscode.commands.executeCommand('setContext', RESULTS_FILES_CONTEXT, [...known.values()].flat()), 50);
  };
  const check = (doc: vscode.TextDocument) => {
    const key = doc.uri.toString();
    const was = known.has(key);
    const is = isResultsDocument(doc);
    if (is) known.set(key, [...new Set([doc.uri.fsPath, doc.uri.path])]);
    else known.delete(key);
    if (is !== was) publish();
  };
  vscode.workspace.textDocuments.forEach(check);
  publish();
  const subscriptions = [
    vscode.workspace.onDidOpenTextDocument(check),
    vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.some((c) => c.range.start.line === 0) && check(e.document)),
    vscode.workspace.onDidCloseTextDocument((doc) => known.delete(doc.uri.toString()) && publish()),
  ];
  return new vscode.Disposable(() => {
    if (pending) clearTimeout(pending);
    for (const s of subscriptions) s.dispose();
  });
}
