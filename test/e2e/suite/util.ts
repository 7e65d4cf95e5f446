// Helpers for the extension-host tests: the test workspace, and waiting for a condition with a
// deadline (re-checked whenever a relevant editor event fires, and on a short poll).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'judge-studio.judge-studio';

export function workspaceFile(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests need a workspace folder (a copy of examples/)');
  return vscode.Uri.joinPath(folder.uri, name);
}

export async function openJudge(name: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(workspaceFile(name));
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}

/**
 * Resolves with the first truthy value of `probe`, checked now, after each of `events`, and every
 * 50 ms; rejects after `timeoutMs` saying what was awaited and what was last seen.
 */
export async function until<T>(what: string, probe: () => T | undefined | false | PromiseLike<T | undefined | false>, events: vscode.Event<unknown>[] = [], timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  let wake: () => void = () => {};
  const subs = events.map((e) => e(() => wake()));
  try {
    for (;;) {
      const value = await probe();
      if (value) return value;
      last = value;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what} (last seen: ${JSON.stringify(last)})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    subs.forEach((s) => s.dispose());
  }
}

export function judgeDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'judge-studio');
}

export function codeOf(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

/** Waits until the document's judge diagnostics satisfy `check` and returns them. */
export function diagnosticsWhere(uri: vscode.Uri, what: string, check: (d: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  return until(what, () => {
    const d = judgeDiagnostics(uri);
    return check(d) ? d : undefined;
  }, [vscode.languages.onDidChangeDiagnostics]);
}

/** Replaces the whole text (undo-able, unsaved): each test puts back what it changed. */
export async function setText(doc: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit), 'the edit was not applied');
  assert.equal(doc.getText(), text);
}

export async function quickFixes(doc: vscode.TextDocument, range: vscode.Range): Promise<vscode.CodeAction[]> {
  const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', doc.uri, range, vscode.CodeActionKind.QuickFix.value);
  return actions.filter((a): a is vscode.CodeAction => 'edit' in a || 'kind' in a);
}
