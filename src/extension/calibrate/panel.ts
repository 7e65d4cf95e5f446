// One calibration panel per (file, metric): calibrates on open, again when the file changes on
// disk (a run appending rows) or on request, and answers the webview's typed requests.
import * as vscode from 'vscode';
import { labelsFileFor, templatesForMetric } from '../../core/labels';
import { webviewMessageSchema, type CalibrationView, type HostMessage, type InitialData, type WebviewMessage } from '../../protocol/calibrate';
import { fileName } from '../preview/panel';
import type { Studio } from '../studio';
import { webviewPage } from '../webview/page';
import { LivePanel } from '../webview/panels';
import type { CellIndex } from './cells';
import { calibrateGrowing, calibrateLoaded, GrowingFile, type LoadedFile, type TemplatesFound } from './load';
import { buildView } from './model';
import { DEFAULT_OPTIONS, groupRows, type ChosenOptions } from './options';

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

export class CalibrationPanel extends LivePanel<HostMessage, WebviewMessage> {
  private cells: CellIndex | undefined;
  /** The swap rule and `by` column chosen in the view (calibrate's `--swap-rule` and `--by`). */
  private chosen: ChosenOptions = DEFAULT_OPTIONS;
  /** The file as read so far: a run appending rows costs a read of the new rows only. */
  private readonly source: GrowingFile;
  /** The workspace's templates named after each metric, looked up once per metric (a run appending recalculates often). */
  private readonly templates = new Map<string, Promise<TemplatesFound | undefined>>();
  /** The view of the first calibration (undefined when it failed), for the command's caller. */
  readonly firstView: Promise<CalibrationView | undefined>;

  constructor(
    panel: vscode.WebviewPanel,
    readonly file: vscode.Uri,
    readonly metric: string,
    private readonly studio: Studio,
    onDisposed: () => void,
    preloaded?: LoadedFile,
  ) {
    super(panel, { extensionUri: studio.context.extensionUri, name: 'calibration', messages: webviewMessageSchema, log: studio.log }, onDisposed);
    panel.title = panelTitle(file, metric);
    this.source = new GrowingFile(file.fsPath);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(file, '..'), fileName(file)));
    // The labels file beside it (human review) is joined in, so a new label recalculates too.
    const labels = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(file, '..'), fileName(vscode.Uri.file(labelsFileFor(file.fsPath)))));
    this.disposables.push(
      watcher,
      watcher.onDidChange(() => this.schedule()),
      watcher.onDidCreate(() => this.schedule()),
      labels,
      labels.onDidChange(() => this.schedule()),
      labels.onDidCreate(() => this.schedule()),
      labels.onDidDelete(() => this.schedule()),
    );
    this.firstView = this.initialize(preloaded);
  }

  override get key(): string {
    return panelKey(this.file, this.metric);
  }

  private get display(): string {
    return vscode.workspace.asRelativePath(this.file, false);
  }

  /** The first result goes into the page itself, so the panel never shows an empty frame. */
  private async initialize(preloaded: LoadedFile | undefined): Promise<CalibrationView | undefined> {
    const outcome = await this.computeNewest(() => this.compute(preloaded));
    if (!outcome) return undefined;
    this.setHtml(this.latest ?? outcome.message);
    return outcome.message.type === 'report' ? outcome.message.view : undefined;
  }

  private setHtml(message: HostMessage): void {
    const initial: InitialData = { state: { file: this.file.fsPath, metric: this.metric }, message };
    this.panel.webview.html = webviewPage({ webview: this.panel.webview, extensionUri: this.studio.context.extensionUri, view: 'calibrate', title: this.panel.title, initial });
  }

  /** Calibrates again (the file changed, or the user asked); `data` when the caller has just read the file. */
  async reload(data?: LoadedFile): Promise<CalibrationView | undefined> {
    // Superseded by a newer calculation (the file changed meanwhile, or the page asked): its view is the answer.
    const message = (await this.refresh(() => this.compute(data))) ?? (await this.newest());
    return message?.type === 'report' ? message.view : undefined;
  }

  private schedule(): void {
    this.debounce(RELOAD_DELAY_MS, () => this.reload());
  }

  private async compute(data: LoadedFile | undefined): Promise<HostMessage> {
    const display = this.display;
    const started = performance.now();
    try {
      const labels = labelsFileFor(this.file.fsPath);
      const templates = await this.templatesFor(this.metric);
      const chosen = this.chosen;
      const outcome = data ? await calibrateLoaded(data, this.metric, display, labels, templates, chosen) : await calibrateGrowing(this.source, this.metric, display, labels, templates, chosen);
      if (!outcome.ok) {
        this.cells = undefined;
        return { type: 'error', file: display, metric: this.metric, message: outcome.error };
      }
      this.cells = outcome.cells;
      const { options } = outcome;
      const built = buildView({
        file: this.file.fsPath,
        display,
        report: outcome.report,
        notes: outcome.notes,
        notesOmitted: outcome.notesOmitted,
        runView: await hasRunView(),
        panel: outcome.panel,
        options: { swapRule: options.passes ? options.chosen.swapRule : null, byColumns: options.byColumns, by: options.chosen.by },
        groups: outcome.by ? groupRows(outcome.by) : undefined,
        sweep: outcome.sweep,
      });
      const view = { ...built, failed: outcome.cells.failed, failedTotal: outcome.cells.failedTotal };
      if (outcome.criteria) view.criteria = outcome.criteria;
      this.studio.log.debug(`calibration of ${display} (${this.metric}) took ${(performance.now() - started).toFixed(1)} ms`);
      return { type: 'report', view };
    } catch (e) {
      this.studio.log.error(`calibration of ${display} failed`, e);
      return { type: 'error', file: display, metric: this.metric, message: `${display}: ${(e as Error).message}` };
    }
  }

  protected override async handle(m: WebviewMessage): Promise<void> {
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
      case 'align':
        // The align command finds the template named after the metric and joins the labels file beside this one.
        await vscode.commands.executeCommand('judgeStudio.alignJudge', { data: this.file.fsPath, metric: this.metric });
        return;
      case 'setOptions': {
        // Only the columns this view offered; a swap rule on a file without passes changes nothing.
        const latest = this.latest;
        const offered = latest?.type === 'report' ? latest.view.options : undefined;
        const by = m.by !== null && offered?.byColumns.includes(m.by) ? m.by : null;
        this.chosen = { swapRule: offered?.swapRule === null ? 'recorded' : m.swapRule, by };
        await this.reload();
        return;
      }
      case 'switchMetric':
        // Only the choices this view offered; the new panel takes this one's place.
        if (m.metric === this.metric || !this.offers(m.metric)) return;
        await vscode.commands.executeCommand('judgeStudio.calibrate', { file: this.file.fsPath, metric: m.metric });
        this.panel.dispose();
        return;
    }
  }

  /** The run view when it is there; otherwise the file itself at the row's line, and the page says so. */
  private templatesFor(metric: string): Promise<TemplatesFound | undefined> {
    let found = this.templates.get(metric);
    if (!found) {
      const root = vscode.workspace.getWorkspaceFolder(this.file)?.uri.fsPath;
      found = root ? templatesForMetric(root, metric).then((list) => ({ found: list, shown: (f: string) => vscode.workspace.asRelativePath(f, false) })) : Promise.resolve(undefined);
      this.templates.set(metric, found);
    }
    return found;
  }

  private async openRow(row: number): Promise<void> {
    const place = this.cells?.locate(row);
    if (place === undefined) {
      await this.notice(`That row is no longer in ${this.display}; reload the calibration.`);
      return;
    }
    let why = 'the run view is not available';
    if (await hasRunView()) {
      try {
        await vscode.commands.executeCommand(SHOW_RESULT_ROW, { file: this.file.fsPath, row: place.runRow, metric: this.metric });
        return;
      } catch (e) {
        this.studio.log.warn(`calibration: the run view could not show row ${place.runRow}`, e);
        why = `the run view could not show it (${(e as Error).message})`;
      }
    }
    const doc = await vscode.workspace.openTextDocument(this.file);
    const visible = vscode.window.visibleTextEditors.find((e) => e.document === doc);
    const range = doc.lineAt(Math.min(place.line - 1, doc.lineCount - 1)).range;
    await vscode.window.showTextDocument(doc, { viewColumn: visible?.viewColumn ?? vscode.ViewColumn.Beside, selection: range });
    await this.notice(`Row ${place.runRow} opened in ${this.display} at line ${place.line}: ${why}.`);
  }

  private offers(metric: string): boolean {
    const latest = this.latest;
    return latest?.type === 'report' && (latest.view.criteria?.options.some((o) => o.metric === metric) ?? false);
  }

  private async notice(text: string): Promise<void> {
    await this.panel.webview.postMessage({ type: 'notice', text } satisfies HostMessage);
  }
}

async function hasRunView(): Promise<boolean> {
  return (await vscode.commands.getCommands(true)).includes(SHOW_RESULT_ROW);
}
