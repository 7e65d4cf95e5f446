// Core spans are 1-based with an exclusive end column; VS Code ranges are 0-based.
import * as vscode from 'vscode';
import type { Span } from '../../core/diagnostics';

export function toRange(span: Span): vscode.Range {
  return new vscode.Range(Math.max(0, span.line - 1), Math.max(0, span.column - 1), Math.max(0, span.endLine - 1), Math.max(0, span.endColumn - 1));
}

export function offsetRange(doc: vscode.TextDocument, start: number, end: number): vscode.Range {
  return new vscode.Range(doc.positionAt(start), doc.positionAt(end));
}

/** The core's span of a VS Code range (for matching editor diagnostics back to core ones). */
export function toSpan(range: vscode.Range): Span {
  return { line: range.start.line + 1, column: range.start.character + 1, endLine: range.end.line + 1, endColumn: range.end.character + 1 };
}

/** The stable code of an editor diagnostic, whichever form VS Code hands back. */
export function codeOf(d: vscode.Diagnostic): string | undefined {
  const c = d.code;
  if (c === undefined) return undefined;
  return typeof c === 'object' ? String(c.value) : String(c);
}
