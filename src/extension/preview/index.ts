// The rendered-prompt preview: commands, the editor-title button's target, and restoring panels
// after a reload.
import * as vscode from 'vscode';
import { previewStateSchema } from '../../protocol/preview';
import { isJudgeDocument, type Studio } from '../studio';
import { webviewOptions } from '../webview/page';
import { PanelSet } from '../webview/panels';
import { PREVIEW_VIEW_TYPE, PreviewPanel, fileName } from './panel';

export function registerPreview(studio: Studio): void {
  const samples = studio.samples;
  const panels = new PanelSet<PreviewPanel>();

  const attach = (panel: vscode.WebviewPanel, template: vscode.Uri) => panels.add((forget) => new PreviewPanel(panel, template, studio, samples, forget));

  /** The template a command is about: its argument, else the active judge editor, else the active preview. */
  const target = (arg: unknown): vscode.Uri | undefined => {
    if (arg instanceof vscode.Uri) return arg;
    const doc = vscode.window.activeTextEditor?.document;
    if (doc && isJudgeDocument(doc)) return doc.uri;
    return panels.values().find((p) => p.panel.active)?.template;
  };

  const withTemplate = (run: (uri: vscode.Uri) => unknown) => async (arg: unknown) => {
    const uri = target(arg);
    if (!uri) {
      void vscode.window.showInformationMessage('Judge Studio: open a .judge template first.');
      return;
    }
    await run(uri);
  };

  studio.push(
    panels,
    vscode.commands.registerCommand(
      'judgeStudio.openPreviewToSide',
      withTemplate((uri) => {
        const existing = panels.get(uri.toString());
        if (existing) {
          existing.panel.reveal(undefined, true);
          return;
        }
        const panel = vscode.window.createWebviewPanel(PREVIEW_VIEW_TYPE, `Preview ${fileName(uri)}`, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, webviewOptions(studio.context.extensionUri));
        attach(panel, uri);
      }),
    ),
    vscode.commands.registerCommand('judgeStudio.selectSampleDataset', withTemplate((uri) => samples.pickDataset(uri))),
    vscode.commands.registerCommand('judgeStudio.selectSampleRow', withTemplate((uri) => samples.pickRow(uri))),
    vscode.window.registerWebviewPanelSerializer(
      PREVIEW_VIEW_TYPE,
      panels.serializer(previewStateSchema, (s) => vscode.Uri.parse(s.uri).toString(), (panel, s) => attach(panel, vscode.Uri.parse(s.uri))),
    ),
  );
}
