// The probe view's host side: one panel per probe output folder, drawn from the files on disk
// (so a reload restores it from the same files), answering the page's requests to open a copy in
// the run view or one of the three files.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { openResults } from '../results/open';
import { PROBE_FILES } from '../../core/probe';
import { webviewMessageSchema, type HostMessage, type InitialData, type ProbeState, type ProbeView, type WebviewMessage } from '../../protocol/probe';
import { SHOW_RESULT_ROW } from '../calibrate/panel';
import type { Studio } from '../studio';
import { messageReceiver, webviewOptions, webviewPage } from '../webview/page';
import type { KeyedPanel } from '../webview/panels';
import { buildProbeView } from './model';

export { PROBE_VIEW_TYPE } from './index';
/** How long a page may take to post 'ready' before it is drawn again. */
const PAGE_START_MS = 5_000;

export function probeFiles(dir: vscode.Uri): { report: vscode.Uri; dataset: vscode.Uri; results: vscode.Uri } {
  return {
    report: vscode.Uri.joinPath(dir, PROBE_FILES.report),
    dataset: vscode.Uri.joinPath(dir, PROBE_FILES.dataset),
    results: vscode.Uri.joinPath(dir, PROBE_FILES.results),
  };
}

/** The view of a probe output folder, or the reason it cannot be shown. */
export async function loadProbeView(dir: vscode.Uri, dataset: string): Promise<HostMessage> {
  const files = probeFiles(dir);
  const decode = async (u: vscode.Uri) => new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(u));
  const shown = vscode.workspace.asRelativePath(dir, false);
  let report: unknown;
  try {
    report = JSON.parse(await decode(files.report));
  } catch (e) {
    return { type: 'error', message: `Cannot read ${shown}/${PROBE_FILES.report}: ${e instanceof SyntaxError ? 'it is not JSON' : (e as Error).message}.` };
  }
  // Without the results file the bars still stand; only the moved rows lose their texts.
  const results = await decode(files.results).catch(() => '');
  const outcome = buildProbeView(report, results, { dataset, dir: shown });
  return outcome.ok ? { type: 'report', view: outcome.view } : { type: 'error', message: outcome.error };
}

export class ProbePanel implements KeyedPanel {
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;
  /** Said again whenever the page (re)loads and posts 'ready'. */
  private note: string | undefined;
  private started = false;
  private watchdog: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly dir: vscode.Uri,
    private readonly studio: Studio,
    private readonly onDisposed: () => void,
  ) {
    panel.webview.options = webviewOptions(studio.context.extensionUri);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage(messageReceiver('probe view', webviewMessageSchema, studio.log, (m) => this.handle(m))),
    );
  }

  get key(): string {
    return this.dir.toString();
  }

  /** Draws the folder's report; returns the view when there is one. */
  async show(dataset: string, interrupted = false): Promise<ProbeView | undefined> {
    const message = await loadProbeView(this.dir, dataset);
    if (this.disposed) return undefined;
    const state: ProbeState = { dir: this.dir.fsPath, dataset };
    const initial: InitialData = { state, message };
    this.panel.title = message.type === 'report' ? `Probes: ${message.view.metric}` : 'Probes';
    const draw = (attempt: number) => {
      this.started = false;
      this.panel.webview.html = webviewPage({ webview: this.panel.webview, extensionUri: this.studio.context.extensionUri, view: 'probe', title: this.panel.title, initial });
      // In VS Code for the Web a webview revived right after a reload sometimes fails to fetch its
      // script (its service worker is not ready yet) and stays blank: a page that never says
      // 'ready' is drawn again, at most twice.
      if (this.watchdog !== undefined) clearTimeout(this.watchdog);
      this.watchdog = setTimeout(() => {
        if (this.started || this.disposed || attempt >= 2) return;
        this.studio.log.info(`probe view: the page of ${vscode.workspace.asRelativePath(this.dir, false)} did not start; drawing it again`);
        draw(attempt + 1);
      }, PAGE_START_MS);
    };
    draw(0);
    this.note = interrupted ? 'The probe run was cancelled: the figures cover only the copies judged before it stopped.' : undefined;
    return message.type === 'report' ? message.view : undefined;
  }

  private async handle(m: WebviewMessage): Promise<void> {
    const files = probeFiles(this.dir);
    if (m.type === 'ready') {
      this.started = true;
      if (this.note) await this.panel.webview.postMessage({ type: 'notice', text: this.note } satisfies HostMessage);
    } else if (m.type === 'openRow') {
      await vscode.commands.executeCommand(SHOW_RESULT_ROW, { file: files.results.fsPath, row: m.row });
    } else if (m.type === 'openFile') {
      const file = files[m.file];
      try {
        await vscode.workspace.fs.stat(file);
      } catch {
        await this.panel.webview.postMessage({ type: 'notice', text: `${path.basename(file.fsPath)} is no longer in ${vscode.workspace.asRelativePath(this.dir, false)}.` } satisfies HostMessage);
        return;
      }
      if (m.file === 'results') await openResults(file, { preview: true, viewColumn: vscode.ViewColumn.Beside });
      else await vscode.window.showTextDocument(file, { preview: true, viewColumn: vscode.ViewColumn.Beside });
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.watchdog !== undefined) clearTimeout(this.watchdog);
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.onDisposed();
  }
}
