// One calibration panel per (file, metric): calibrates on open, again when the file changes on
// disk (a run appending rows) or on request, and answers the webview's typed requests.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import {
  describeRejection,
  webviewMessageSchema,
  type CalibrationView,
  type HostMessage,
  type WebviewMessage,
} from '../../protocol/calibrate';
import { fileName, webviewOptions } from '../preview/panel';
import type { Studio } from '../studio';
import type { CellIndex } from './cells';
import { calibrationHtml } from './html';
import { calibrateFile, calibrateLoaded, type LoadedFile } from './load';
import { buildView } from './model';

export const CALIBRATION_VIEW_TYPE = 'judgeStudio.calibration';
/** The run view's command (registered by the run panel): opens one row of a results file. */
export const SHOW_RESULT_ROW = 'judgeStudio.showResultRow';
/** A run appends a line per finished row: wait for a pause before calibrating again. */
const RELOAD_DELAY_MS = 400;

export function panelKey(file: vscode.Uri, metric: string): string {
  return `${file.toString()}#${metric}`;
}

export function panelTitle(file: vscode.Uri, metric: string): string {
  return `Calibration: ${metric} (${fileName(file)})`;
}

export class CalibrationPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Incremented per calibration; an older, slower one never overwrites a newer one. */
  private generation = 0;
  private latest: HostMessage | undefined;
  private cells: CellIndex | undefined;
  private disposed = false;
  /** The view of the first calibration (undefined when it failed), for the command's caller. */
  readonly firstView: Promise<CalibrationView | undefined>;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly file: vscode.Uri,
    readonly metric: string,
    private readonly studio: Studio,
    private readonly onDisposed: (p: CalibrationPanel) => void,
    preloaded?: LoadedFile,
  ) {
    panel.webview.options = webviewOptions(studio.context.extensionUri);
    panel.title = panelTitle(file, metric);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(file, '..'), fileName(file)));
    this.disposables.push(
      watcher,
      watcher.onDidChange(() => this.schedule()),
      watcher.onDidCreate(() => this.schedule()),
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
    );
    this.firstView = this.initialize(preloaded);
  }

  get key(): string {
    return panelKey(this.file, this.metric);
  }

  private get display(): string {
    return vscode.workspace.asRelativePath(this.file, false);
  }

  /** The first result goes into the page itself, so the panel never shows an empty frame. */
  private async initialize(preloaded: LoadedFile | undefined): Promise<CalibrationView | undefined> {
    const gen = ++this.generation;
    const message = await this.compute(preloaded);
    if (this.disposed) return undefined;
    if (gen === this.generation) this.latest = message;
    this.setHtml(this.latest ?? message);
    return message.type === 'report' ? message.view : undefined;
  }

  private setHtml(message: HostMessage): void {
    const webview = this.panel.webview;
    const root = this.studio.context.extensionUri;
    webview.html = calibrationPage(webview, root, this.panel.title, { file: this.file.fsPath, metric: this.metric }, message);
  }

  /** Calibrates again (the file changed, or the user asked); `data` when the caller has just read the file. */
  async reload(data?: LoadedFile): Promise<CalibrationView | undefined> {
    const gen = ++this.generation;
    const message = await this.compute(data);
    if (this.disposed || gen !== this.generation) return undefined;
    this.latest = message;
    await this.panel.webview.postMessage(message);
    return message.type === 'report' ? message.view : undefined;
  }

  private schedule(): void {
    if (this.disposed) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.reload();
    }, RELOAD_DELAY_MS);
  }

  private async compute(data: LoadedFile | undefined): Promise<HostMessage> {
    const display = this.display;
    const started = performance.now();
    try {
      const outcome = data ? await calibrateLoaded(data, this.metric, display) : await calibrateFile(this.file.fsPath, this.metric, display);
      if (!outcome.ok) {
        this.cells = undefined;
        return { type: 'error', file: display, metric: this.metric, message: outcome.error };
      }
      this.cells = outcome.cells;
      const view = buildView({ file: this.file.fsPath, display, report: outcome.report, notes: outcome.notes, notesOmitted: outcome.notesOmitted, runView: await hasRunView() });
      this.studio.log.debug(`calibration of ${display} (${this.metric}) took ${(performance.now() - started).toFixed(1)} ms`);
      return { type: 'report', view };
    } catch (e) {
      this.studio.log.error(`calibration of ${display} failed`, e);
      return { type: 'error', file: display, metric: this.metric, message: `${display}: ${(e as Error).message}` };
    }
  }

  private receive(raw: unknown): void {
    const parsed = webviewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.studio.log.warn(`calibration: ignored a malformed message from the webview (${describeRejection(parsed.error)})`);
      return;
    }
    void this.handle(parsed.data).catch((e: unknown) => {
      this.studio.log.error(`calibration: ${parsed.data.type} failed`, e);
      void vscode.window.showErrorMessage(`Judge Studio calibration: ${(e as Error).message}`);
    });
  }

  private async handle(m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        // The page may have loaded after a newer result was posted; send the newest again.
        if (this.latest) await this.panel.webview.postMessage(this.latest);
        return;
      case 'reload':
        await this.reload();
        return;
      case 'selectCell': {
        const { total, rows } = this.cells?.rows(m.human, m.judge) ?? { total: 0, rows: [] };
        await this.panel.webview.postMessage({ type: 'cellRows', human: m.human, judge: m.judge, total, rows } satisfies HostMessage);
        return;
      }
      case 'openRow':
        await this.openRow(m.row);
        return;
    }
  }

  /** The run view when it is there; otherwise the file itself at the row's line, and the page says so. */
  private async openRow(row: number): Promise<void> {
    const place = this.cells?.locate(row);
    if (place === undefined) {
      await this.notice(`Row ${row} is no longer in ${this.display}; reload the calibration.`);
      return;
    }
    let why = 'the run view is not available';
    if (await hasRunView()) {
      try {
        await vscode.commands.executeCommand(SHOW_RESULT_ROW, { file: this.file.fsPath, row: place.runRow, metric: this.metric });
        return;
      } catch (e) {
        this.studio.log.warn(`calibration: the run view could not show row ${row}`, e);
        why = `the run view could not show it (${(e as Error).message})`;
      }
    }
    const doc = await vscode.workspace.openTextDocument(this.file);
    const visible = vscode.window.visibleTextEditors.find((e) => e.document === doc);
    const range = doc.lineAt(Math.min(place.line - 1, doc.lineCount - 1)).range;
    await vscode.window.showTextDocument(doc, { viewColumn: visible?.viewColumn ?? vscode.ViewColumn.Beside, selection: range });
    await this.notice(`Row ${row} opened in ${this.display} at line ${place.line}: ${why}.`);
  }

  private async notice(text: string): Promise<void> {
    await this.panel.webview.postMessage({ type: 'notice', text } satisfies HostMessage);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.onDisposed(this);
  }
}

async function hasRunView(): Promise<boolean> {
  return (await vscode.commands.getCommands(true)).includes(SHOW_RESULT_ROW);
}

function calibrationPage(webview: vscode.Webview, root: vscode.Uri, title: string, state: { file: string; metric: string }, message: HostMessage): string {
  return calibrationHtml({
    cspSource: webview.cspSource,
    nonce: randomBytes(18).toString('base64'),
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'dist', 'webview', 'calibrate.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'media', 'calibrate.css')).toString(),
    title,
    initial: { state, message },
  });
}
