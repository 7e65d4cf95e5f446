// The three actions above a template's front matter: run on the preview's sample row, open the
// preview, run on the whole dataset.
import * as vscode from 'vscode';
import { LANGUAGE_ID } from '../studio';
import { COMMANDS } from './commands';

export function registerCodeLens(): vscode.Disposable {
  return vscode.languages.registerCodeLensProvider(
    { language: LANGUAGE_ID },
    {
      provideCodeLenses(doc) {
        const top = new vscode.Range(0, 0, 0, 0);
        return [
          new vscode.CodeLens(top, { title: '▷ Run judge', tooltip: "Judge the preview's sample row and show the verdict", command: COMMANDS.runJudge, arguments: [{ template: doc.uri, current: true }] }),
          new vscode.CodeLens(top, { title: 'Preview', tooltip: 'Show the rendered prompt beside the template', command: 'judgeStudio.openPreviewToSide', arguments: [doc.uri] }),
          new vscode.CodeLens(top, { title: 'Run on dataset', tooltip: 'Judge every row of a dataset and write a results file', command: COMMANDS.runOnDataset, arguments: [{ template: doc.uri }] }),
        ];
      },
    },
  );
}
