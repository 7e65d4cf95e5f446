// Outline: front matter, sections, rubric points under the rubric, examples under Examples.
import * as vscode from 'vscode';
import { LANGUAGE_ID, type Studio } from '../studio';
import { outline, type OutlineKind, type OutlineSymbol } from './model/symbols';

const KIND: Record<OutlineKind, vscode.SymbolKind> = {
  frontMatter: vscode.SymbolKind.Object,
  key: vscode.SymbolKind.Property,
  section: vscode.SymbolKind.Namespace,
  otherSection: vscode.SymbolKind.Module,
  rubricPoint: vscode.SymbolKind.EnumMember,
  example: vscode.SymbolKind.Struct,
  heading: vscode.SymbolKind.String,
};

export function registerSymbols(studio: Studio): void {
  const provider: vscode.DocumentSymbolProvider = {
    provideDocumentSymbols(doc) {
      return outline(studio.template(doc)).map((s) => toSymbol(doc, s));
    },
  };
  studio.push(vscode.languages.registerDocumentSymbolProvider({ language: LANGUAGE_ID }, provider, { label: 'Judge template' }));
}

function toSymbol(doc: vscode.TextDocument, s: OutlineSymbol): vscode.DocumentSymbol {
  const last = Math.min(s.lastLine, doc.lineCount) - 1;
  const range = new vscode.Range(s.firstLine - 1, 0, last, doc.lineAt(Math.max(0, last)).text.length);
  const selection = doc.lineAt(Math.min(s.selectionLine, doc.lineCount) - 1).range;
  const symbol = new vscode.DocumentSymbol(s.name, s.detail, KIND[s.kind], range, range.contains(selection) ? selection : range);
  symbol.children = s.children.map((c) => toSymbol(doc, c));
  return symbol;
}
