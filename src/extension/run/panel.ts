// The run view's webview panel: one panel, reused by every run. It shows the newest view, answers
// the page's typed messages and never lets page text reach the DOM as HTML (see src/webview/run.ts).
import * as vscode from 'vscode';
import { webviewMessageSchema, type HostMessage, type InitialData, type RunView, type WebviewMessage } from '../../protocol/run';
import type { Studio } from '../studio';
import { messageReceiver, webviewOptions, webviewPage } from '../webview/page';

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
      panel.webview.onDidReceiveMessage(messageReceiver('run view', webviewMessageSchema, studio.log, (m) => this.handle(m))),
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
    const initial: InitialData = { state: { id: view.id }, view };
    this.panel.webview.html = webviewPage({ webview: this.panel.webview, extensionUri: this.studio.context.extensionUri, view: 'run', title: this.panel.title, initial });
  }

  private async post(message: HostMessage): Promise<void> {
    try {
      await this.panel.webview.postMessage(message);
    } catch (e) {
      this.studio.log.warn('run view: a message to the page failed', e);
    }
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
