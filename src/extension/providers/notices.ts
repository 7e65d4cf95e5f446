// The notifications a refused run shows, each with the button that fixes it. They are not
// awaited: a caller (the run panel) gets its answer at once while the toast stays up.
import * as vscode from 'vscode';
import type { Studio } from '../studio';

export const COMMANDS = {
  setApiKey: 'judgeStudio.setApiKey',
  clearApiKey: 'judgeStudio.clearApiKey',
  configureEndpoint: 'judgeStudio.configureEndpoint',
  testConnection: 'judgeStudio.testConnection',
} as const;

export type Fix = 'trust' | 'configure' | 'settings' | 'setKey' | 'log';

const LABELS: Record<Fix, string> = {
  trust: 'Manage Workspace Trust',
  configure: 'Configure Endpoint',
  settings: 'Open Settings',
  setKey: 'Set API Key',
  log: 'Show Log',
};

export function notify(studio: Studio, severity: 'warning' | 'error', message: string, fixes: readonly Fix[]): void {
  const show = severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
  void Promise.resolve(show(message, ...fixes.map((f) => LABELS[f]))).then(async (choice) => {
    const fix = fixes.find((f) => LABELS[f] === choice);
    if (fix) await applyFix(studio, fix);
  }).catch((e: unknown) => studio.log.error('a notification button failed', e));
}

async function applyFix(studio: Studio, fix: Fix): Promise<void> {
  switch (fix) {
    case 'trust':
      await vscode.commands.executeCommand('workbench.trust.manage');
      return;
    case 'configure':
      await vscode.commands.executeCommand(COMMANDS.configureEndpoint);
      return;
    case 'settings':
      await vscode.commands.executeCommand('workbench.action.openSettings', 'judgeStudio.endpoint');
      return;
    case 'setKey':
      await vscode.commands.executeCommand(COMMANDS.setApiKey);
      return;
    case 'log':
      studio.log.show(true);
      return;
  }
}
