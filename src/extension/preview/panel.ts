// One preview panel per template: renders on open, re-renders (debounced) as the template, its
// dataset or the chosen row change, and answers the webview's typed requests.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { describeRejection, webviewMessageSchema, type HostMessage, type WebviewMessage } from '../../protocol/preview';
import { validationOf } from '../language/validation';
import type { Studio } from '../studio';
import type { Samples } from './datasets';
import { previewHtml } from './html';
import { buildPreview } from './model';

export const PREVIEW_VIEW_TYPE = 'judgeStudio.preview';
const DEFAULT_DELAY_MS = 60;

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')] };
}

export class PreviewPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Incremented per update; a slower, older update never overwrites a newer one. */
  private generation = 0;
  private latest: HostMessage | undefined;
  private dataset: string | undefined;
  private disposed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly template: vscode.Uri,
    private readonly studio: Studio,
    private readonly samples: Samples,
    private readonly onDisposed: (p: PreviewPanel) => void,
  ) {
    panel.webview.options = webviewOptions(studio.context.extensionUri);
    panel.title = `Preview ${fileName(template)}`;
    const key = template.toString();
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
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

  /** The first render goes into the page itself, so the panel never shows an empty frame. */
  private async initialize(): Promise<void> {
    const gen = ++this.generation;
    const message = await this.compute();
    if (this.disposed || gen !== this.generation) {
      if (!this.disposed) this.setHtml(null);
      return;
    }
    this.latest = message;
    this.setHtml(message);
  }

  private setHtml(message: HostMessage | null): void {
    const webview = this.panel.webview;
    const root = this.studio.context.extensionUri;
    this.panel.webview.html = previewHtml({
      cspSource: webview.cspSource,
      nonce: randomBytes(18).toString('base64'),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'dist', 'webview', 'preview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'media', 'preview.css')).toString(),
      title: this.panel.title,
      initial: { state: { uri: this.template.toString() }, message },
    });
  }

  schedule(delay?: number): void {
    if (this.disposed) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    const ms = delay ?? vscode.workspace.getConfiguration('judgeStudio', this.template).get<number>('preview.delayMs', DEFAULT_DELAY_MS);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.update();
    }, Math.max(0, ms));
  }

  private async update(): Promise<void> {
    const gen = ++this.generation;
    const message = await this.compute();
    if (this.disposed || gen !== this.generation) return;
    this.latest = message;
    await this.panel.webview.postMessage(message);
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

  private receive(raw: unknown): void {
    const parsed = webviewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.studio.log.warn(`preview: ignored a malformed message from the webview (${describeRejection(parsed.error)})`);
      return;
    }
    void this.handle(parsed.data).catch((e: unknown) => {
      this.studio.log.error(`preview: ${parsed.data.type} failed`, e);
      void vscode.window.showErrorMessage(`Judge Studio preview: ${(e as Error).message}`);
    });
  }

  private async handle(m: WebviewMessage): Promise<void> {
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

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.onDisposed(this);
  }
}

export function fileName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}
