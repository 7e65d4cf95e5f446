// The finished-batch message with its buttons: Open Results opens the results file in the Results Viewer, Calibrate
// opens the calibration view on it (which also lists the rows that failed).
import * as vscode from 'vscode';
import { openResults } from '../results/open';
import type { BatchEntry } from './model/history';
import { batchEndMessage, CALIBRATE, OPEN_RESULTS } from './model/batchEnd';

const CALIBRATE_COMMAND = 'judgeStudio.calibrate';

/**
 * Shows the end of a batch; resolves with the button pressed (after acting on it), or undefined.
 * `resultsFile` is the entry's results file; `fatal` why the batch stopped, when it failed.
 */
export async function showBatchEnd(entry: BatchEntry, resultsFile: vscode.Uri, fatal?: string): Promise<string | undefined> {
  const m = batchEndMessage(entry, fatal);
  const show = m.severity === 'error' ? vscode.window.showErrorMessage : m.severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const choice = await show(m.text, ...m.actions);
  if (choice === OPEN_RESULTS) await openResults(resultsFile);
  if (choice === CALIBRATE) await vscode.commands.executeCommand(CALIBRATE_COMMAND, { file: resultsFile.fsPath, metric: entry.metric });
  return choice;
}
