// Running a judge from the editor: commands, CodeLens, the run view (restored after a reload)
// and the run-history side panel.
import * as vscode from 'vscode';
import { runStateSchema } from '../../protocol/run';
import { registerSidebar } from '../sidebar';
import { isJudgeDocument, type Studio } from '../studio';
import { runBatch } from './batch';
import { registerCodeLens } from './codeLens';
import { COMMANDS, runArgs, showRowArgsSchema, toUri } from './commands';
import { RunController, type RunRequest } from './controller';
import { History } from './history';
import { RUN_VIEW_TYPE } from './panel';
import { pickResultRow } from './resultsPicker';
import { SampleChooser } from './samples';

const HINT = 'Judge Studio: select a response, put the cursor on a JSONL line, or open a .judge template to run the judge.';

export function registerRun(studio: Studio): void {
  const history = new History(studio);
  const chooser = new SampleChooser(studio, studio.samples);
  const controller = new RunController(studio, history);
  studio.push(history, chooser, controller);
  registerSidebar(studio, history);

  const run = async (request: RunRequest | undefined) => (request ? controller.run(request) : undefined);

  studio.push(
    registerCodeLens(),
    vscode.commands.registerCommand(COMMANDS.runJudge, async (arg: unknown) => {
      const args = runArgs(arg);
      if (args?.template) {
        const opts = { ...(args.row !== undefined && { row: args.row }), ...(args.dataset && { dataset: toUri(args.dataset) }), ...(args.current !== undefined && { current: args.current }) };
        return run(await chooser.datasetRow(toUri(args.template), opts));
      }
      const editor = vscode.window.activeTextEditor;
      if (!editor) return void vscode.window.showInformationMessage(HINT);
      if (isJudgeDocument(editor.document)) return run(await chooser.datasetRow(editor.document.uri, { ...(args?.current && { current: true }) }));
      if (editor.selections.some((s) => !s.isEmpty)) return run(await chooser.selection(editor));
      if (/\.(jsonl|ndjson)$/i.test(editor.document.uri.path)) return run(await chooser.lineUnderCursor(editor));
      return void vscode.window.showInformationMessage(HINT);
    }),
    vscode.commands.registerCommand(COMMANDS.runOnSelection, async (arg: unknown) => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || !editor.selections.some((s) => !s.isEmpty)) {
        return void vscode.window.showInformationMessage('Judge Studio: select the response to judge first (for a pairwise template, two selections or a JSON object).');
      }
      const template = runArgs(arg)?.template;
      return run(await chooser.selection(editor, template ? toUri(template) : undefined));
    }),
    vscode.commands.registerCommand(COMMANDS.runOnDataset, async (arg: unknown) => {
      const args = runArgs(arg);
      const active = vscode.window.activeTextEditor?.document;
      // From a dataset editor, that dataset is the one to run (with its sibling or the last template).
      const activeDataset = active && /\.(jsonl|ndjson|json|csv)$/i.test(active.uri.path) && active.uri.scheme === 'file' ? active.uri : undefined;
      const template = args?.template ? toUri(args.template) : await chooser.template(activeDataset);
      if (!template) return undefined;
      const dataset = args?.dataset ? toUri(args.dataset) : (activeDataset ?? (await chooser.datasetForBatch(template)));
      if (!dataset) return undefined;
      const resume = args?.resume === undefined || typeof args.resume === 'boolean' ? args?.resume : toUri(args.resume);
      return runBatch(studio, history, {
        template,
        dataset,
        ...(resume !== undefined && { resume }),
        ...(args?.rows && { rows: args.rows }),
        ...(args?.open !== undefined && { open: args.open }),
      });
    }),
    vscode.commands.registerCommand(COMMANDS.chooseTemplate, async (arg: unknown) => {
      // The template a selection or line of this file is judged with, asked again and remembered.
      const editor = vscode.window.activeTextEditor;
      if (editor && (!(arg instanceof vscode.Uri) || arg.toString() === editor.document.uri.toString())) return chooser.chooseFor(editor);
      if (!(arg instanceof vscode.Uri)) return undefined;
      return (await chooser.picker.choose({ file: arg, fits: () => true, ask: true, what: `samples in ${vscode.workspace.asRelativePath(arg)}` }))?.uri;
    }),
    vscode.commands.registerCommand(COMMANDS.showResultRow, async (arg: unknown) => {
      const parsed = showRowArgsSchema.safeParse(arg);
      if (arg !== undefined && !parsed.success) throw new Error('Show Result Row takes {file: "<results .jsonl path>", row: <number>}.');
      const target = parsed.success ? { file: toUri(parsed.data.file), row: parsed.data.row, metric: parsed.data.metric } : await pickResultRow(history);
      if (!target) return undefined;
      return controller.showRow(target.file, target.row, target.metric);
    }),
    vscode.commands.registerCommand(COMMANDS.openHistoryEntry, async (id: unknown) => {
      if (typeof id !== 'string') return undefined;
      const found = await history.find(id);
      if (!found || found.entry.type !== 'run') {
        void vscode.window.showWarningMessage('Judge Studio: that run is no longer in the history file.');
        return undefined;
      }
      return controller.showEntry(found.entry, found.root);
    }),
    vscode.window.registerWebviewPanelSerializer(RUN_VIEW_TYPE, {
      async deserializeWebviewPanel(panel, state: unknown) {
        const parsed = runStateSchema.safeParse(state);
        if (!parsed.success) return panel.dispose();
        const id = parsed.data.id;
        try {
          const row = /^row:(\d+)@(.+)$/.exec(id);
          if (row) {
            await controller.showRow(vscode.Uri.parse(row[2]!), Number(row[1]), undefined, panel);
            return;
          }
          const found = await history.find(id);
          if (found?.entry.type === 'run') await controller.showEntry(found.entry, found.root, panel);
          else panel.dispose(); // a run that never finished has nothing to show
        } catch (e) {
          studio.log.warn('the run view could not be restored', e);
          panel.dispose();
        }
      },
    }),
  );
}
