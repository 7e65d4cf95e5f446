// "Judge Studio: Calibrate Judge": pick a results/dataset file and a metric, open the calibration
// view; and restore calibration panels after a reload.
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { formatOf } from '../../core/dataset';
import { calibrationStateSchema, type CalibrationView } from '../../protocol/calibrate';
import type { Studio } from '../studio';
import { webviewOptions } from '../webview/page';
import { PanelSet } from '../webview/panels';
import { loadFile, type LoadedFile } from './load';
import { detectMetrics, metricChoices, noMetricMessage } from './model';
import { CALIBRATION_VIEW_TYPE, CalibrationPanel, panelKey, panelTitle } from './panel';
import { activeFileUri } from '../activeFile';

export const CALIBRATE_COMMAND = 'judgeStudio.calibrate';

/** Arguments for scripts and tests; menus pass the file's Uri instead. */
const argsSchema = z.object({ file: z.optional(z.string()), metric: z.optional(z.string()), beside: z.optional(z.boolean()) });

const DATA_FILTERS = { 'Results or datasets': ['jsonl', 'ndjson', 'json', 'csv'] };

export function registerCalibration(studio: Studio): void {
  const panels = new PanelSet<CalibrationPanel>();

  const open = (panel: vscode.WebviewPanel, file: vscode.Uri, metric: string, data?: LoadedFile): CalibrationPanel =>
    panels.add((forget) => new CalibrationPanel(panel, file, metric, studio, forget, data));

  const calibrateCommand = async (arg: unknown): Promise<CalibrationView | undefined> => {
    const args = argsSchema.safeParse(arg);
    const given = args.success ? args.data : {};
    const file = arg instanceof vscode.Uri ? arg : await targetFile(given.file);
    if (!file) return undefined;
    const display = vscode.workspace.asRelativePath(file, false);
    if (file.scheme !== 'file') {
      void vscode.window.showErrorMessage(`Judge Studio: ${display} is not a file on disk; save it first, then calibrate.`);
      return undefined;
    }
    try {
      formatOf(file.fsPath);
    } catch (e) {
      void vscode.window.showErrorMessage(`Judge Studio: ${(e as Error).message.split(file.fsPath).join(display)}`);
      return undefined;
    }
    let data: LoadedFile;
    try {
      data = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Reading ${display}` }, () => loadFile(file.fsPath));
    } catch (e) {
      void vscode.window.showErrorMessage(`Judge Studio: ${(e as Error).message.split(file.fsPath).join(display)}`);
      return undefined;
    }
    const metric = given.metric?.trim() || (await pickMetric(data, display));
    if (!metric) return undefined;

    const existing = panels.get(panelKey(file, metric));
    if (existing) {
      existing.panel.reveal(undefined, false);
      return existing.reload(data);
    }
    // Beside the file when it is the active editor, so both stay in view.
    const beside = given.beside === true || activeFileUri()?.toString() === file.toString();
    const panel = vscode.window.createWebviewPanel(CALIBRATION_VIEW_TYPE, panelTitle(file, metric), beside ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active, webviewOptions(studio.context.extensionUri));
    return open(panel, file, metric, data).firstView;
  };

  studio.push(
    panels,
    vscode.commands.registerCommand(CALIBRATE_COMMAND, calibrateCommand),
    vscode.window.registerWebviewPanelSerializer(
      CALIBRATION_VIEW_TYPE,
      panels.serializer(calibrationStateSchema, (s) => panelKey(vscode.Uri.file(s.file), s.metric), (panel, s) => open(panel, vscode.Uri.file(s.file), s.metric)),
    ),
  );
}

/** The file named by the argument (relative to the first workspace folder), else the active editor's, else one the user picks. */
async function targetFile(given: string | undefined): Promise<vscode.Uri | undefined> {
  if (given) {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return path.isAbsolute(given) || !folder ? vscode.Uri.file(path.resolve(given)) : vscode.Uri.joinPath(folder.uri, given);
  }
  const active = activeFileUri();
  if (active && active.scheme === 'file' && /\.(jsonl|ndjson|json|csv)$/i.test(active.path)) return active;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    filters: DATA_FILTERS,
    openLabel: 'Calibrate',
    title: 'Calibrate Judge: choose a results or dataset file with human labels',
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
  });
  return picked?.[0];
}

/** The one metric with label columns, or the user's pick when there are several. */
async function pickMetric(data: LoadedFile, display: string): Promise<string | undefined> {
  const choices = metricChoices(detectMetrics(data.rows));
  if (choices.length === 0) {
    void vscode.window.showErrorMessage(`Judge Studio: ${noMetricMessage(display)}`);
    return undefined;
  }
  if (choices.length === 1) return choices[0]?.metric;
  const picked = await vscode.window.showQuickPick(
    choices.map((c) => ({
      label: c.metric,
      description: c.kind,
      detail: c.complete ? `${c.labelled} row${c.labelled === 1 ? '' : 's'} with a human and a judge label` : 'only one of the two label columns is present',
      metric: c.metric,
    })),
    { title: `Calibrate Judge: which metric in ${display}?`, placeHolder: 'The file has label columns for several metrics' },
  );
  return picked?.metric;
}
