// One review panel per (results file, metric): shows the session's view, writes each label to the
// labels file as one appended line, follows the labels file when someone else writes to it, and
// turns a labelled disagreement into a few-shot example in the template.
import * as vscode from 'vscode';
import { appendLabels, exampleEdit, readLabels, type LabelLine } from '../../core/labels';
import { keyFields } from '../../core/results';
import { parseTemplate } from '../../core/template';
import { webviewMessageSchema, type HostMessage, type InitialData, type WebviewMessage } from '../../protocol/review';
import { fileName } from '../preview/panel';
import type { Studio } from '../studio';
import { webviewPage } from '../webview/page';
import { LivePanel } from '../webview/panels';
import type { ReviewSession } from './session';

export const REVIEW_VIEW_TYPE = 'judgeStudio.review';
const CALIBRATE_COMMAND = 'judgeStudio.calibrate';

export function reviewKey(file: vscode.Uri, metric: string): string {
  return `${file.toString()}#${metric}`;
}

export interface ReviewTarget {
  file: vscode.Uri;
  metric: string;
  labelsFile: vscode.Uri;
  template: vscode.Uri | undefined;
}

export class ReviewPanel extends LivePanel<HostMessage, WebviewMessage> {
  /** Writes are queued so two quick key presses append in order. */
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    panel: vscode.WebviewPanel,
    readonly target: ReviewTarget,
    private readonly session: ReviewSession,
    private readonly studio: Studio,
    onDisposed: () => void,
  ) {
    super(panel, { extensionUri: studio.context.extensionUri, name: 'review', messages: webviewMessageSchema, log: studio.log }, onDisposed);
    panel.title = `Review: ${target.metric} (${fileName(target.file)})`;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(target.labelsFile, '..'), fileName(target.labelsFile)));
    this.disposables.push(
      watcher,
      watcher.onDidChange(() => this.debounce(200, () => this.reloadLabels())),
      watcher.onDidCreate(() => this.debounce(200, () => this.reloadLabels())),
    );
    const initial: InitialData = { state: { file: target.file.fsPath, metric: target.metric }, message: this.state() };
    this.latest = initial.message ?? undefined;
    panel.webview.html = webviewPage({ webview: panel.webview, extensionUri: studio.context.extensionUri, view: 'review', title: panel.title, initial });
  }

  override get key(): string {
    return reviewKey(this.target.file, this.target.metric);
  }

  /** The view as the page shows it now (for tests and the command's caller). */
  get view(): ReturnType<ReviewSession['view']> {
    return this.session.view();
  }

  private state(): HostMessage {
    return { type: 'state', view: this.session.view() };
  }

  private async post(message: HostMessage = this.state()): Promise<void> {
    this.latest = message;
    await this.panel.webview.postMessage(message);
  }

  private async reloadLabels(): Promise<void> {
    try {
      this.session.setLines((await readLabels(this.target.labelsFile.fsPath)).lines);
      await this.post();
    } catch (e) {
      await this.post({ type: 'error', message: (e as Error).message });
    }
  }

  private async write(line: LabelLine | undefined): Promise<void> {
    if (!line) return;
    const file = this.target.labelsFile.fsPath;
    const done = this.writing.then(() => appendLabels(file, [line]));
    this.writing = done.catch(() => undefined);
    try {
      await done;
    } catch (e) {
      this.studio.log.error(`review: could not write ${file}`, e);
      await this.post({ type: 'error', message: `The label could not be written to ${vscode.workspace.asRelativePath(this.target.labelsFile, false)}: ${(e as Error).message}` });
    }
  }

  protected override async handle(m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        if (this.latest) await this.panel.webview.postMessage(this.latest);
        return;
      case 'label':
        await this.write(this.session.label(m.key, m.label, m.comment));
        break;
      case 'skip':
        this.session.skip();
        break;
      case 'undo':
        await this.write(this.session.undo());
        break;
      case 'move':
        this.session.move(m.delta);
        break;
      case 'setOrder':
        this.session.setOrder(m.order);
        break;
      case 'setWidth':
        this.session.setWidth(m.width);
        break;
      case 'addExample':
        await this.addExample(m.key);
        return;
      case 'openCalibration':
        // Beside the review, so both stay in view and the figures can be watched while labelling.
        await vscode.commands.executeCommand(CALIBRATE_COMMAND, { file: this.target.file.fsPath, metric: this.target.metric, beside: true });
        return;
    }
    await this.post();
  }

  /** Inserts the row as an example in the template's Examples section and selects its justification. */
  private async addExample(key: string): Promise<void> {
    const template = this.target.template;
    const row = this.session.labelledRow(key);
    if (!template || !row) {
      await this.post({ type: 'notice', text: template ? 'Label the row first.' : 'No template is known for this metric, so there is nowhere to add the example.' });
      return;
    }
    const doc = await vscode.workspace.openTextDocument(template);
    const parsed = parseTemplate(doc.getText());
    const out = exampleEdit(parsed, row.record, keyFields(parsed), row.label, row.comment);
    if (!out.ok) {
      await this.post({ type: 'notice', text: `Not added: ${out.error}.` });
      return;
    }
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, doc.positionAt(out.edit.offset), out.edit.text);
    if (!(await vscode.workspace.applyEdit(edit))) {
      await this.post({ type: 'notice', text: 'The template could not be edited.' });
      return;
    }
    const start = doc.positionAt(out.edit.offset + out.edit.justification.start);
    const end = doc.positionAt(out.edit.offset + out.edit.justification.end);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false, selection: new vscode.Range(start, end) });
    await this.post({ type: 'notice', text: `Added as an example to ${vscode.workspace.asRelativePath(template, false)} (unsaved): rewrite the selected justification, then save.` });
  }
}
