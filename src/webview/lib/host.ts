// The page's end of the link to the extension host, the same for every view: VS Code's webview
// API (acquired once per page, as it must be) with posts typed by the view's protocol, and the
// start-up: the zod-checked data-initial attribute, zod-checked host messages, then 'ready'.
import type * as z from 'zod/mini';
import { parseMessage } from '../../protocol/common';

interface VsCodeApi {
  postMessage(message: unknown): void;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

/** The host as one view sees it: W is its WebviewMessage, S the state it persists for the serializer. */
export interface Host<W, S> {
  post(message: W): void;
  setState(state: S): void;
}

export function connect<W extends { type: string }, S>(): Host<W, S> {
  return { post: (message) => api.postMessage(message), setState: (state) => api.setState(state) };
}

export interface PageStart<I extends { state: unknown }, H> {
  /** The view's initialDataSchema: what the host put in the page's data-initial attribute. */
  initial: z.ZodMiniType<I>;
  /** The view's hostMessageSchema. */
  messages: z.ZodMiniType<H>;
  /** Draws the initial data; its state is persisted already. */
  show(initial: I): void;
  receive(message: H): void;
  /** Says on the page that something arrived which the protocol does not allow. */
  reject(reason: string): void;
}

/** Draws the initial data, listens to the host, then posts 'ready' so the host resends anything newer. */
export function start<I extends { state: unknown }, H>(host: Host<{ type: 'ready' }, I['state']>, page: PageStart<I, H>): void {
  const raw = document.body.dataset.initial;
  if (raw) {
    try {
      const initial = parseMessage(page.initial, JSON.parse(raw));
      if (initial.ok) {
        host.setState(initial.message.state);
        page.show(initial.message);
      } else page.reject(initial.reason);
    } catch (e) {
      page.reject(`initial data: ${(e as Error).message}`);
    }
  }
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const parsed = parseMessage(page.messages, event.data);
    if (parsed.ok) page.receive(parsed.message);
    else page.reject(parsed.reason);
  });
  host.post({ type: 'ready' });
}
