// Providers, keys, settings and workspace trust as one service: the run panel calls
// `resolveJudge`; the commands here configure what it resolves to.
import * as vscode from 'vscode';
import type { Studio } from '../studio';
import { clearApiKey, setApiKey, testConnection } from './commands';
import { configureEndpoint } from './configure';
import { COMMANDS } from './notices';
import { readSettings } from './resolve';

export { NOT_CONFIGURED_MESSAGE, UNTRUSTED_MESSAGE, displayUrl, readSettings, resolveJudge } from './resolve';
export type { ResolveOptions, ResolveOutcome, ResolvedJudge } from './resolve';
export type { ProviderSettings } from './model/settings';
export type { TestOutcome } from './commands';

export function registerProviders(studio: Studio): void {
  // Command arguments (for tests and automation): setApiKey {origin, key}, clearApiKey {origin},
  // configureEndpoint {baseUrl, model?, provider?}, testConnection {interactive}.
  const command = <T>(id: string, run: (studio: Studio, arg: unknown) => Promise<T>) =>
    vscode.commands.registerCommand(id, async (arg: unknown) => {
      try {
        return await run(studio, arg);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        studio.log.error(`${id} failed: ${message}`);
        // From the palette: one clear message. From code: the caller gets the rejection.
        if (arg !== undefined) throw e;
        void vscode.window.showErrorMessage(`Judge Studio: ${message}`);
        return undefined;
      }
    });
  studio.push(
    command(COMMANDS.setApiKey, setApiKey),
    command(COMMANDS.clearApiKey, clearApiKey),
    command(COMMANDS.configureEndpoint, configureEndpoint),
    command(COMMANDS.testConnection, testConnection),
    vscode.workspace.onDidGrantWorkspaceTrust(() => studio.log.info('workspace trusted: judges can run, and workspace endpoint settings apply')),
  );
  const settings = readSettings();
  if (settings.ignoredWorkspaceValues.length) {
    studio.log.info(`Restricted Mode: ignoring workspace values of ${settings.ignoredWorkspaceValues.join(', ')}`);
  }
}
