// The run view's webview panel: one panel, reused by every run. It shows the newest view, answers
// the page's typed messages and never lets page text reach the DOM as HTML (see src/webview/run.ts).
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { describeRejection, webviewMessageSchema, type HostMessage, type RunView, type WebviewMessage } from '../../protocol/run';
import { webviewOptions } from '../preview/panel';
import type { Studio } from '../studio';
import { runHtml } from './html';

export const RUN_VIEW_TYPE = 'judgeStudio.run';

export interface PanelHandlers {
  rerun(): Promise<void>;
  cancel(): void;
  copy(): Promise<boolean>;
}

export class RunPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private latest: RunView | undefined;
  private loaded = false;
  private disposed = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly studio: Studio,
    private readonly handlers: PanelHandlers,
    private readonly onDisposed: () => void,
  ) {
    panel.webview.options = webviewOptions(studio.context.extensionUri);
    panel.iconPath = vscode.Uri.joinPath(studio.context.extensionUri, 'media', 'judge-studio.svg');
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)),
    );
  }

  static create(studio: Studio, handlers: PanelHandlers, onDisposed: () => void): RunPanel {
    const panel = vscode.window.createWebviewPanel(RUN_VIEW_TYPE, 'Judge Run', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, webviewOptions(studio.context.extensionUri));
    return new RunPanel(panel, studio, handlers, onDisposed);
  }

  /** The newest view shown (the page may not have drawn it yet). */
  get view(): RunView | undefined {
    return this.latest;
  }

  show(view: RunView): void {
    if (this.disposed) return;
    this.latest = view;
    this.panel.title = `Judge Run: ${view.template.metric}`;
    if (!this.loaded) {
      // The first view goes into the page itself, so the panel never shows an empty frame.
      this.loaded = true;
      this.setHtml(view);
      return;
    }
    void this.post({ type: 'show', view });
  }

  reveal(): void {
    this.panel.reveal(undefined, true);
  }

  private setHtml(view: RunView): void {
    const webview = this.panel.webview;
    const root = this.studio.context.extensionUri;
    webview.html = runHtml({
      cspSource: webview.cspSource,
      nonce: randomBytes(18).toString('base64'),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'dist', 'webview', 'run.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'media', 'run.css')).toString(),
      title: this.panel.title,
      initial: { state: { id: view.id }, view },
    });
  }

  private async post(message: HostMessage): Promise<void> {
    try {
      await this.panel.webview.postMessage(message);
    } catch (e) {
      this.studio.log.warn('run view: a message to the page failed', e);
    }
  }

  private receive(raw: unknown): void {
    const parsed = webviewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.studio.log.warn(`run view: ignored a malformed message from the webview (${describeRejection(parsed.error)})`);
      return;
    }
    void this.handle(parsed.data).catch((e: unknown) => {
      this.studio.log.error(`run view: ${parsed.data.type} failed`, e);
      void vscode.window.showErrorMessage(`Judge Studio run view: ${(e as Error).message}`);
    });
  }

  private async handle(m: WebviewMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        // The page may have loaded after a newer view was posted; send the newest again.
        if (this.latest) await this.post({ type: 'show', view: this.latest });
        return;
      case 'rerun':
        await this.handlers.rerun();
        return;
      case 'cancel':
        this.handlers.cancel();
        return;
      case 'copy':
        if (await this.handlers.copy()) await this.post({ type: 'copied' });
        return;
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.onDisposed();
  }
}
