// Folding: front matter, sections, sub-headings and code fences.
import * as vscode from 'vscode';
import { LANGUAGE_ID, type Studio } from '../studio';
import { foldingRanges } from './model/folding';

export function registerFolding(studio: Studio): void {
  const provider: vscode.FoldingRangeProvider = {
    provideFoldingRanges(doc) {
      return foldingRanges(studio.template(doc)).map((f) => new vscode.FoldingRange(f.start - 1, f.end - 1, f.kind === 'region' ? vscode.FoldingRangeKind.Region : undefined));
    },
  };
  studio.push(vscode.languages.registerFoldingRangeProvider({ language: LANGUAGE_ID }, provider));
}
