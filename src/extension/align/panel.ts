// The align view's host side: one panel per out-dir, drawn from align-report.json (so a reload
// restores it from the same file), answering the page: a candidate's diff against the template,
// Accept (the candidate becomes the template's next version), and Review Disagreements (the
// review queue on the held-out rows the candidate still gets wrong).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { candidateFile, REPORT_FILE, resultsFile } from '../../core/align';
import { webviewMessageSchema, type AlignState, type AlignView, type HostMessage, type InitialData, type WebviewMessage } from '../../protocol/align';
import type { History } from '../run/history';
import type { Studio } from '../studio';
import { messageReceiver, webviewOptions, webviewPage } from '../webview/page';
import type { KeyedPanel } from '../webview/panels';
import { acceptCandidate } from './accept';
import { buildAlignView, parseReport, type ParsedReport } from './model';

export const ALIGN_VIEW_TYPE = 'judgeStudio.align';
const REVIEW_COMMAND = 'judgeStudio.reviewJudgments';
const COMPARE_COMMAND = 'judgeStudio.compareRuns';

export class AlignPanel implements KeyedPanel {
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;
  private report: ParsedReport | undefined;
  private accepted: string | null = null;
  private readonly dir: vscode.Uri;
  private readonly template: vscode.Uri;
  private readonly labels: vscode.Uri;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly state: AlignState,
    private readonly studio: Studio,
    private readonly history: History,
    private readonly onDisposed: () => void,
  ) {
    this.dir = vscode.Uri.file(state.dir);
    this.template = vscode.Uri.file(state.template);
    this.labels = vscode.Uri.file(state.labels);
    panel.webview.options = webviewOptions(studio.context.extensionUri);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage(messageReceiver('align view', webviewMessageSchema, studio.log, (m) => this.handle(m))),
    );
  }

  get key(): string {
    return this.dir.toString();
  }

  /** Reads the report and draws it; the view when there is one. */
  async show(): Promise<AlignView | undefined> {
    const message = await this.load();
    if (this.disposed) return undefined;
    const initial: InitialData = { state: this.state, message };
    this.panel.title = message.type === 'report' ? `Align: ${message.view.metric}` : 'Align';
    this.panel.webview.html = webviewPage({ webview: this.panel.webview, extensionUri: this.studio.context.extensionUri, view: 'align', title: this.panel.title, initial });
    return message.type === 'report' ? message.view : undefined;
  }

  private async load(): Promise<HostMessage> {
    const file = vscode.Uri.joinPath(this.dir, REPORT_FILE);
    const shown = vscode.workspace.asRelativePath(file, false);
    let text: string;
    try {
      text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(file));
    } catch (e) {
      return { type: 'error', message: `Cannot read ${shown}: ${(e as Error).message}` };
    }
    const parsed = parseReport(text);
    if (!parsed.ok) return { type: 'error', message: `Cannot show ${shown}: ${parsed.error}.` };
    this.report = parsed.report;
    return { type: 'report', view: this.view(parsed.report) };
  }

  private view(report: ParsedReport): AlignView {
    return buildAlignView(report, { template: vscode.workspace.asRelativePath(this.template, false), dir: vscode.workspace.asRelativePath(this.dir, false) }, this.accepted);
  }

  private post(message: HostMessage): Thenable<boolean> {
    return this.panel.webview.postMessage(message);
  }

  private async handle(m: WebviewMessage): Promise<void> {
    const report = this.report;
    if (m.type === 'ready') return;
    if (m.type === 'openReport') {
      await vscode.window.showTextDocument(vscode.Uri.joinPath(this.dir, REPORT_FILE), { preview: true, viewColumn: vscode.ViewColumn.Beside });
      return;
    }
    // Only the candidates the report lists: an id from the page names nothing else.
    const candidate = report?.candidates.find((c) => c.id === m.id);
    if (!report || !candidate) return void this.post({ type: 'notice', text: `There is no candidate "${m.id}" in this report.` });
    const file = vscode.Uri.file(candidateFile(this.dir.fsPath, candidate.id));
    if (m.type === 'showDiff') {
      await vscode.commands.executeCommand('vscode.diff', this.template, file, `${path.basename(this.template.fsPath)} ↔ ${candidate.id} (candidate)`, { viewColumn: vscode.ViewColumn.Beside, preview: true });
    } else if (m.type === 'review') {
      await vscode.commands.executeCommand(REVIEW_COMMAND, {
        file: resultsFile(this.dir.fsPath, candidate.id, 'heldout'),
        metric: report.metric,
        template: this.template.fsPath,
        labels: this.labels.fsPath,
        keys: candidate.heldout_wrong,
      });
    } else if (m.type === 'accept') {
      await this.accept(report, candidate.id);
    }
  }

  private async accept(report: ParsedReport, id: string): Promise<void> {
    const outcome = await acceptCandidate(this.history, { dir: this.dir, template: this.template, id, report, dataset: vscode.workspace.asRelativePath(vscode.Uri.file(this.state.data), false) });
    if (!outcome.ok) {
      await this.post({ type: 'notice', text: outcome.message });
      void vscode.window.showWarningMessage(`Judge Studio: ${outcome.message}`);
      return;
    }
    this.accepted = id;
    // Drawn again rather than posted: a page hidden and shown again starts from its HTML.
    await this.show();
    const shown = vscode.workspace.asRelativePath(this.template, false);
    const choice = await vscode.window.showInformationMessage(`Judge Studio: accepted ${id} as the next version of ${shown}. The run history holds the held-out runs of both versions.`, 'Compare Runs', 'Open Template');
    if (choice === 'Compare Runs') await vscode.commands.executeCommand(COMPARE_COMMAND, { a: outcome.before.fsPath, b: outcome.after.fsPath, metric: report.metric });
    else if (choice === 'Open Template') await vscode.window.showTextDocument(this.template);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.onDisposed();
  }
}
