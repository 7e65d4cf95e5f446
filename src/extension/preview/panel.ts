// One preview panel per template: renders on open, re-renders (debounced) as the template, its
// dataset or the chosen row change, and answers the webview's typed requests.
import * as vscode from 'vscode';
import { webviewMessageSchema, type HostMessage, type InitialData, type WebviewMessage } from '../../protocol/preview';
import { validationOf } from '../language/validation';
import type { Studio } from '../studio';
import { webviewPage } from '../webview/page';
import { LivePanel } from '../webview/panels';
import type { Samples } from './datasets';
import { buildPreview } from './model';

export const PREVIEW_VIEW_TYPE = 'judgeStudio.preview';
const DEFAULT_DELAY_MS = 60;

export class PreviewPanel extends LivePanel<HostMessage, WebviewMessage> {
  private dataset: string | undefined;

  constructor(
    panel: vscode.WebviewPanel,
    readonly template: vscode.Uri,
    private readonly studio: Studio,
    private readonly samples: Samples,
    onDisposed: () => void,
  ) {
    super(panel, { extensionUri: studio.context.extensionUri, name: 'preview', messages: webviewMessageSchema, log: studio.log }, onDisposed);
    panel.title = `Preview ${fileName(template)}`;
    const key = template.toString();
    this.disposables.push(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.uri.toString() === key && e.contentChanges.length) this.schedule();
      }),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (doc.uri.toString() === key) this.schedule();
      }),
      studio.onDidChangeSelection((uri) => {
        if (uri.toString() === key) this.schedule(0);
      }),
      samples.onDidChangeDataset((uri) => {
        if (uri.toString() === this.dataset) this.schedule();
      }),
    );
    void this.initialize();
  }

  override get key(): string {
    return this.template.toString();
  }

  /** The first render goes into the page itself, so the panel never shows an empty frame. */
  private async initialize(): Promise<void> {
    const outcome = await this.computeNewest(() => this.compute());
    // Superseded: the page starts without a render and the newer one is posted to it.
    if (outcome) this.setHtml(outcome.newest ? outcome.message : null);
  }

  private setHtml(message: HostMessage | null): void {
    const initial: InitialData = { state: { uri: this.template.toString() }, message };
    this.panel.webview.html = webviewPage({ webview: this.panel.webview, extensionUri: this.studio.context.extensionUri, view: 'preview', title: this.panel.title, initial });
  }

  schedule(delay?: number): void {
    const ms = delay ?? vscode.workspace.getConfiguration('judgeStudio', this.template).get<number>('preview.delayMs', DEFAULT_DELAY_MS);
    this.debounce(ms, () => this.refresh(() => this.compute()));
  }

  private async compute(): Promise<HostMessage> {
    const file = fileName(this.template);
    const started = performance.now();
    try {
      const doc = await vscode.workspace.openTextDocument(this.template);
      const template = this.studio.template(doc);
      const sample = await this.samples.sample(this.template);
      this.dataset = sample.dataset?.toString();
      const message = buildPreview({ uri: this.template.toString(), file, template, diagnostics: validationOf(template), sample: sample.info, record: sample.outcome });
      const ms = performance.now() - started;
      if (ms > 16) this.studio.log.debug(`preview of ${file} took ${ms.toFixed(1)} ms`);
      return message;
    } catch (e) {
      this.studio.log.error(`preview of ${file} failed`, e);
      const template = { uri: this.template.toString(), file, name: null, kind: null };
      return { type: 'errors', template, sample: { dataset: null, row: 1, rows: 0 }, title: `${file} cannot be previewed.`, errors: [{ code: 'template-unreadable', severity: 'error', message: (e as Error).message }] };
    }
  }

  protected override async handle(m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        // The page may have loaded after a newer render was posted; send the newest again.
        if (this.latest) await this.panel.webview.postMessage(this.latest);
        else this.schedule(0);
        return;
      case 'pickDataset':
        await this.samples.pickDataset(this.template);
        return;
      case 'pickRow':
        await this.samples.pickRow(this.template);
        return;
      case 'stepRow':
        await this.samples.stepRow(this.template, m.delta);
        return;
      case 'reveal': {
        const doc = await vscode.workspace.openTextDocument(this.template);
        const visible = vscode.window.visibleTextEditors.find((e) => e.document === doc);
        const at = new vscode.Position(m.line - 1, m.column - 1);
        await vscode.window.showTextDocument(doc, { viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One, selection: new vscode.Range(at, at) });
        return;
      }
    }
  }
}

export function fileName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}
