// Live diagnostics from the core validator: debounced while typing (a newer change cancels the
// pending run), immediate on open and save, cleared when the document closes.
import * as vscode from 'vscode';
import type { Diagnostic, Severity } from '../../core/diagnostics';
import { isJudgeDocument, type Studio } from '../studio';
import { toRange } from './convert';
import { validationOf } from './validation';

export const DIAGNOSTIC_SOURCE = 'judge-studio';
const DEFAULT_DELAY_MS = 150;

const SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** Read-only copies (diff and history views) would repeat the file's problems under another name. */
const NOT_VALIDATED = new Set(['git', 'gitfs', 'vscode-scm', 'vscode-local-history', 'review']);

/** Codes about text that does nothing, shown faded by the editor. */
const UNNECESSARY = new Set<string>(['unused-input']);

export function toVscodeDiagnostic(d: Diagnostic): vscode.Diagnostic {
  const out = new vscode.Diagnostic(toRange(d), d.message, SEVERITY[d.severity]);
  out.code = d.code;
  out.source = DIAGNOSTIC_SOURCE;
  if (UNNECESSARY.has(d.code)) out.tags = [vscode.DiagnosticTag.Unnecessary];
  return out;
}

export function registerDiagnostics(studio: Studio): void {
  const collection = vscode.languages.createDiagnosticCollection('judge');
  const pending = new Map<string, ReturnType<typeof setTimeout>>();

  const cancel = (uri: vscode.Uri) => {
    const key = uri.toString();
    const timer = pending.get(key);
    if (timer !== undefined) clearTimeout(timer);
    pending.delete(key);
  };

  const publish = (doc: vscode.TextDocument) => {
    cancel(doc.uri);
    if (doc.isClosed || !isJudgeDocument(doc) || NOT_VALIDATED.has(doc.uri.scheme)) {
      collection.delete(doc.uri);
      return;
    }
    const started = performance.now();
    const diagnostics = validationOf(studio.template(doc));
    collection.set(doc.uri, diagnostics.map(toVscodeDiagnostic));
    const ms = performance.now() - started;
    if (ms > 50) studio.log.warn(`validating ${vscode.workspace.asRelativePath(doc.uri)} (${doc.lineCount} lines) took ${ms.toFixed(0)} ms`);
  };

  const schedule = (doc: vscode.TextDocument) => {
    cancel(doc.uri);
    const delay = vscode.workspace.getConfiguration('judgeStudio', doc.uri).get<number>('diagnostics.delayMs', DEFAULT_DELAY_MS);
    pending.set(doc.uri.toString(), setTimeout(() => publish(doc), Math.max(0, delay)));
  };

  studio.push(
    collection,
    vscode.workspace.onDidOpenTextDocument(publish),
    vscode.workspace.onDidSaveTextDocument(publish),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (isJudgeDocument(e.document) && e.contentChanges.length) schedule(e.document);
    }),
    vscode.workspace.onDidCloseTextDocument((doc) => {
      cancel(doc.uri);
      collection.delete(doc.uri);
    }),
    { dispose: () => [...pending.values()].forEach(clearTimeout) },
  );
  for (const doc of vscode.workspace.textDocuments) if (isJudgeDocument(doc)) publish(doc);
}
