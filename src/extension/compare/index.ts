// "Judge Studio: Compare Runs": pick two results files (or pass {a, b, metric, metricB}), see
// agreement, flips and significance side by side, and diff the two template versions.
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { snapshotPath } from '../../core/compare';
import { webviewMessageSchema, type CompareView, type HostMessage, type InitialData, type WebviewMessage } from '../../protocol/compare';
import { SHOW_RESULT_ROW } from '../calibrate/panel';
import type { Studio } from '../studio';
import { messageReceiver, webviewOptions, webviewPage } from '../webview/page';
import { buildCompareView } from './model';

export const COMPARE_COMMAND = 'judgeStudio.compareRuns';
export const COMPARE_VIEW_TYPE = 'judgeStudio.compare';
const argsSchema = z.object({ a: z.string(), b: z.string(), metric: z.optional(z.string()), metricB: z.optional(z.string()) });

export function registerCompare(studio: Studio): void {
  studio.push(
    vscode.commands.registerCommand(COMPARE_COMMAND, async (arg: unknown): Promise<CompareView | undefined> => {
      const parsed = argsSchema.safeParse(arg);
      const a = parsed.success ? toUri(parsed.data.a) : await pick('Compare Runs: the first run (A, before)');
      if (!a) return undefined;
      const b = parsed.success ? toUri(parsed.data.b) : await pick('Compare Runs: the second run (B, after)', a);
      if (!b) return undefined;
      return openCompare(studio, a, b, parsed.success ? parsed.data.metric : undefined, parsed.success ? parsed.data.metricB : undefined);
    }),
  );
}

function toUri(file: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  return path.isAbsolute(file) || !folder ? vscode.Uri.file(path.resolve(file)) : vscode.Uri.joinPath(folder.uri, file);
}

async function pick(title: string, exclude?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const found = [
    ...(await vscode.workspace.findFiles('**/*.results.jsonl', '**/node_modules/**', 500)),
    ...(await vscode.workspace.findFiles('.judge-studio/results/**/*.jsonl', undefined, 500)),
  ].filter((u) => u.toString() !== exclude?.toString());
  const items = found.map((uri) => ({ label: vscode.workspace.asRelativePath(uri, false), uri }));
  const chosen = await vscode.window.showQuickPick(items, { title, placeHolder: items.length ? 'A results file' : 'No results files in the workspace' });
  return chosen?.uri;
}

async function openCompare(studio: Studio, a: vscode.Uri, b: vscode.Uri, metric?: string, metricB?: string): Promise<CompareView | undefined> {
  const display = (u: vscode.Uri) => vscode.workspace.asRelativePath(u, false);
  const decode = async (u: vscode.Uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(u));
  let message: HostMessage;
  try {
    const outcome = await buildCompareView({ a: display(a), b: display(b), textA: await decode(a), textB: await decode(b) }, metric, metricB);
    message = outcome.ok ? { type: 'report', view: outcome.view } : { type: 'error', message: outcome.error };
  } catch (e) {
    message = { type: 'error', message: (e as Error).message };
  }
  const panel = vscode.window.createWebviewPanel(COMPARE_VIEW_TYPE, `Compare: ${path.basename(a.path)} ↔ ${path.basename(b.path)}`, vscode.ViewColumn.Active, webviewOptions(studio.context.extensionUri));
  const initial: InitialData = { state: { a: a.toString(), b: b.toString() }, message };
  panel.webview.html = webviewPage({ webview: panel.webview, extensionUri: studio.context.extensionUri, view: 'compare', title: panel.title, initial });
  const view = message.type === 'report' ? message.view : undefined;
  const notice = (text: string) => void panel.webview.postMessage({ type: 'notice', text } satisfies HostMessage);
  const handle = async (m: WebviewMessage): Promise<void> => {
    if (m.type === 'showDiff' && view) {
      const root = vscode.workspace.getWorkspaceFolder(a)?.uri.fsPath ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      const [ha] = view.hashes.a;
      const [hb] = view.hashes.b;
      if (!root || !ha || !hb) return notice('These results carry no template hash (m/template_hash), so there is no template version to diff.');
      const left = vscode.Uri.file(snapshotPath(root, ha));
      const right = vscode.Uri.file(snapshotPath(root, hb));
      for (const [u, h] of [[left, ha], [right, hb]] as const) {
        try {
          await vscode.workspace.fs.stat(u);
        } catch {
          return notice(`No snapshot of template ${h} under .judge-studio/templates/; runs made by this version of Judge Studio keep one.`);
        }
      }
      await vscode.commands.executeCommand('vscode.diff', left, right, `Template ${ha} ↔ ${hb}`);
    } else if (m.type === 'openRow') {
      await vscode.commands.executeCommand(SHOW_RESULT_ROW, { file: (m.side === 'a' ? a : b).fsPath, row: m.row });
    }
  };
  panel.webview.onDidReceiveMessage(messageReceiver('compare view', webviewMessageSchema, studio.log, handle));
  return view;
}
