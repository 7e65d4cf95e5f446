// The results viewer: a read-only custom editor for results files. The host parses the file
// (the last line per `_row` stands) and answers the page's windowed queries; "Open as Text" is
// one click away, in the page and in the editor title.
import * as vscode from 'vscode';
import { parseDataset } from '../../core/dataset';
import { webviewMessageSchema, type HostMessage, type InitialData, type WebviewMessage } from '../../protocol/results';
import { SHOW_RESULT_ROW } from '../calibrate/panel';
import type { Studio } from '../studio';
import { messageReceiver, webviewOptions, webviewPage } from '../webview/page';
import { metricsOf, noVerdictMessage, ResultsTable } from './model/table';

export const RESULTS_VIEW_TYPE = 'judgeStudio.results';
const RELOAD_DELAY_MS = 400;

/** Open viewers by file URI, so a run that appended to a file already on screen can have it read again. */
const viewers = new Map<string, Set<ResultsEditor>>();

/**
 * Reads `file` again in every viewer showing it. Opening a file that already has a viewer only
 * reveals it, and a file watcher may miss appends (some remote and network file systems), so a
 * front end that just wrote to the file says so here.
 */
export function reloadResultsViewers(file: vscode.Uri, only?: ReadonlySet<unknown>): void {
  for (const viewer of viewers.get(file.toString()) ?? []) if (!only || only.has(viewer)) viewer.schedule();
}

/** The viewers showing `file` now (to tell them from one about to be opened, which reads the file itself). */
export function resultsViewersOf(file: vscode.Uri): ReadonlySet<unknown> {
  return new Set(viewers.get(file.toString()) ?? []);
}

class ResultsDocument implements vscode.CustomDocument {
  constructor(readonly uri: vscode.Uri) {}
  dispose(): void {}
}

export class ResultsEditorProvider implements vscode.CustomReadonlyEditorProvider<ResultsDocument> {
  constructor(private readonly studio: Studio) {}

  openCustomDocument(uri: vscode.Uri): ResultsDocument {
    return new ResultsDocument(uri);
  }

  async resolveCustomEditor(document: ResultsDocument, panel: vscode.WebviewPanel): Promise<void> {
    new ResultsEditor(this.studio, document.uri, panel);
  }
}

class ResultsEditor {
  private table: ResultsTable | undefined;
  private metric: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly studio: Studio,
    private readonly file: vscode.Uri,
    private readonly panel: vscode.WebviewPanel,
  ) {
    panel.webview.options = webviewOptions(studio.context.extensionUri);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(file, '..'), file.path.split('/').pop() ?? '*'));
    this.disposables.push(
      watcher,
      watcher.onDidChange(() => this.schedule()),
      watcher.onDidCreate(() => this.schedule()),
      panel.webview.onDidReceiveMessage(messageReceiver('results viewer', webviewMessageSchema, studio.log, (m) => this.handle(m))),
      panel.onDidDispose(() => this.dispose()),
    );
    const key = file.toString();
    if (!viewers.has(key)) viewers.set(key, new Set());
    viewers.get(key)!.add(this);
    this.disposables.push({ dispose: () => viewers.get(key)?.delete(this) });
    void this.load().then((message) => this.setHtml(message));
  }

  private get display(): string {
    return vscode.workspace.asRelativePath(this.file, false);
  }

  private setHtml(message: HostMessage): void {
    const initial: InitialData = { state: { file: this.file.toString() }, message };
    this.panel.webview.html = webviewPage({ webview: this.panel.webview, extensionUri: this.studio.context.extensionUri, view: 'results', title: this.display, initial });
  }

  private async load(): Promise<HostMessage> {
    const started = performance.now();
    try {
      const bytes = await vscode.workspace.fs.readFile(this.file);
      const items = parseDataset(new TextDecoder().decode(bytes), 'jsonl');
      const records = items.flatMap((i) => ('record' in i ? [i.record] : []));
      const metrics = metricsOf(records);
      if (this.metric === undefined || !metrics.includes(this.metric)) this.metric = metrics[0];
      if (this.metric === undefined) {
        this.table = undefined;
        return { type: 'error', message: noVerdictMessage(this.display) };
      }
      this.table = new ResultsTable(items, this.metric, metrics);
      this.studio.log.debug(`results viewer: ${this.display} (${this.table.entries.length} rows) read in ${(performance.now() - started).toFixed(0)} ms`);
      return { type: 'summary', summary: this.table.summary(this.display) };
    } catch (e) {
      this.table = undefined;
      return { type: 'error', message: `${this.display}: ${(e as Error).message}` };
    }
  }

  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.reload(), RELOAD_DELAY_MS);
  }

  private async reload(): Promise<void> {
    await this.post(await this.load());
  }

  private async post(message: HostMessage): Promise<void> {
    await this.panel.webview.postMessage(message);
  }

  private async handle(m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        return;
      case 'query': {
        if (!this.table) return;
        const { total, rows } = this.table.query(m.query);
        await this.post({ type: 'rows', id: m.query.id, offset: m.query.offset, total, rows });
        return;
      }
      case 'metric':
        this.metric = m.metric;
        await this.reload();
        return;
      case 'openAsText':
        await vscode.commands.executeCommand('vscode.openWith', this.file, 'default');
        return;
      case 'openRow':
        try {
          await vscode.commands.executeCommand(SHOW_RESULT_ROW, { file: this.file.fsPath, row: m.row, ...(this.metric ? { metric: this.metric } : {}) });
        } catch (e) {
          await this.post({ type: 'notice', text: `Row ${m.row} could not be shown in the run view: ${(e as Error).message}` });
        }
        return;
    }
  }

  private dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
