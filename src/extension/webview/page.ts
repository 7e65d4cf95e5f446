// The host's side of every view's page: the options that confine the webview (scripts, and local
// resources only from dist/webview and media), its HTML with the shared stylesheet and a fresh
// nonce, and zod-checked receipt of what the page posts.
import * as vscode from 'vscode';
import type * as z from 'zod/mini';
import { parseMessage } from '../../protocol/common';
import { nonce, pageHtml } from './html';

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')] };
}

export interface PageSpec<T> {
  webview: vscode.Webview;
  extensionUri: vscode.Uri;
  /** The view's name: its script is dist/webview/<view>.js, its stylesheet media/<view>.css. */
  view: 'preview' | 'run' | 'calibrate' | 'review' | 'results' | 'compare' | 'probe' | 'align';
  title: string;
  initial: T;
}

export function webviewPage<T>(s: PageSpec<T>): string {
  const uri = (...path: string[]) => s.webview.asWebviewUri(vscode.Uri.joinPath(s.extensionUri, ...path)).toString();
  return pageHtml({
    cspSource: s.webview.cspSource,
    nonce: nonce(),
    scriptUri: uri('dist', 'webview', `${s.view}.js`),
    baseStyleUri: uri('media', 'base.css'),
    styleUri: uri('media', `${s.view}.css`),
    title: s.title,
    initial: s.initial,
  });
}

/**
 * A listener for the page's messages: each is checked against `schema` before `handle` sees it.
 * A malformed one is logged and dropped; a handler that fails is logged and shown to the user.
 * `name` names the view in both, e.g. "preview" -> "Judge Studio preview: …".
 */
export function messageReceiver<W extends { type: string }>(
  name: string,
  schema: z.ZodMiniType<W>,
  log: vscode.LogOutputChannel,
  handle: (message: W) => Promise<void>,
): (raw: unknown) => void {
  return (raw) => {
    const parsed = parseMessage(schema, raw);
    if (!parsed.ok) {
      log.warn(`${name}: ignored a malformed message from the webview (${parsed.reason})`);
      return;
    }
    const message = parsed.message;
    void handle(message).catch((e: unknown) => {
      log.error(`${name}: ${message.type} failed`, e);
      void vscode.window.showErrorMessage(`Judge Studio ${name}: ${(e as Error).message}`);
    });
  };
}
