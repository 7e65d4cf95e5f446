// activate wires the features together and does nothing else.
import * as vscode from 'vscode';
import { registerAuthoring } from './authoring';
import { registerCalibration } from './calibrate';
import { registerCodeActions } from './language/codeActions';
import { registerCompletion } from './language/completion';
import { registerDiagnostics } from './language/diagnostics';
import { registerFolding } from './language/folding';
import { registerHover } from './language/hover';
import { registerSymbols } from './language/symbols';
import { registerPreview } from './preview';
import { registerProviders } from './providers';
import { registerResults } from './results';
import { registerCompare } from './compare';
import { registerProbe } from './probe';
import { registerRun } from './run';
import { registerReview } from './review';
import { registerImport } from './import';
import { registerProviderBatches } from './batchApi';
import { registerAlign } from './align';
import { scrubbedLog } from './scrubbedLog';
import { Studio } from './studio';

export function activate(context: vscode.ExtensionContext): void {
  const log = scrubbedLog(vscode.window.createOutputChannel('Judge Studio', { log: true }));
  context.subscriptions.push(log);
  const started = Date.now();
  const studio = new Studio(context, log);
  context.subscriptions.push(studio);
  // What every command did, including the ones that stopped early and why (Output → Judge Studio).
  context.subscriptions.push(vscode.commands.registerCommand('judgeStudio.showLog', () => log.show(true)));
  const features: [string, (s: Studio) => void][] = [
    // Each feature registers itself and pushes its disposables onto the studio.
    ['diagnostics', registerDiagnostics],
    ['completion', registerCompletion],
    ['hover', registerHover],
    ['outline', registerSymbols],
    ['folding', registerFolding],
    ['quick fixes', registerCodeActions],
    ['preview', registerPreview],
    ['providers', registerProviders],
    ['calibration', registerCalibration],
    ['run judge and history', registerRun],
    ['authoring help', registerAuthoring],
    ['human review', registerReview],
    ['results viewer', registerResults],
    ['compare runs', registerCompare],
    ['import judge prompts', registerImport],
    ['probe judge', registerProbe],
    ['provider batches', registerProviderBatches],
    ['align judge with labels', registerAlign],
  ];
  for (const [name, register] of features) {
    try {
      register(studio);
    } catch (e) {
      // One broken feature must not take the others down; tell the user which one.
      log.error(`${name} failed to start`, e);
      void vscode.window.showErrorMessage(`Judge Studio: ${name} failed to start: ${(e as Error).message}`);
    }
  }
  log.info(`activated in ${Date.now() - started} ms`);
}

// Everything is disposed through context.subscriptions.
export function deactivate(): void {}
