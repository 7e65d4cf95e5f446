// "Judge Studio: Probe Judge" and the probe views restored after a reload. What they do
// (feature.ts, with the probe code) loads the first time either is used.
import * as vscode from 'vscode';
import type { Studio } from '../studio';
import type { ProbeFeature } from './feature';

export const PROBE_COMMAND = 'judgeStudio.probeJudge';
/** The probe view's webview type (package.json activates on it); here, so registering the serializer loads no probe code. */
export const PROBE_VIEW_TYPE = 'judgeStudio.probe';

export function registerProbe(studio: Studio): void {
  let loaded: Promise<ProbeFeature> | undefined;
  const feature = () => (loaded ??= import('./feature').then((m) => m.probeFeature(studio)));
  studio.push(
    vscode.commands.registerCommand(PROBE_COMMAND, async (arg: unknown) => (await feature()).probe(arg)),
    vscode.window.registerWebviewPanelSerializer(PROBE_VIEW_TYPE, { deserializeWebviewPanel: async (panel, state: unknown) => (await feature()).restore(panel, state) }),
  );
}
