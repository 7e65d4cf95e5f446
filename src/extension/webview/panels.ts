// Views that keep one panel per subject (a template; a file and metric). PanelSet: a command
// reveals the open panel instead of opening another, and the serializer restores the rest after
// a reload. LivePanel: the lifecycle such a panel shares, showing the newest computed message.
import type * as vscode from 'vscode';
import type * as z from 'zod/mini';
import { messageReceiver, webviewOptions } from './page';

export interface KeyedPanel extends vscode.Disposable {
  /** Names the panel's subject; two open panels never share one. */
  readonly key: string;
  readonly panel: vscode.WebviewPanel;
}

export class PanelSet<P extends KeyedPanel> implements vscode.Disposable {
  private readonly open = new Map<string, P>();

  get(key: string): P | undefined {
    return this.open.get(key);
  }

  values(): P[] {
    return [...this.open.values()];
  }

  /** Adds the panel `create` makes; it calls `forget` when it is disposed, which takes it out again. */
  add(create: (forget: () => void) => P): P {
    let p: P | undefined;
    p = create(() => {
      if (p && this.open.get(p.key) === p) this.open.delete(p.key);
    });
    this.open.set(p.key, p);
    return p;
  }

  /**
   * Restores a panel from the state its page saved. A state that does not parse, or names a
   * subject already open, closes the restored panel instead (the open one is revealed).
   */
  serializer<S>(stateSchema: z.ZodMiniType<S>, keyOf: (state: S) => string, restore: (panel: vscode.WebviewPanel, state: S) => void): vscode.WebviewPanelSerializer {
    return {
      deserializeWebviewPanel: async (panel, state: unknown) => {
        const parsed = stateSchema.safeParse(state);
        if (!parsed.success) {
          // Nothing says what it showed: a blank panel would only confuse.
          panel.dispose();
          return;
        }
        const existing = this.open.get(keyOf(parsed.data));
        if (existing) {
          panel.dispose();
          existing.panel.reveal(undefined, true);
          return;
        }
        restore(panel, parsed.data);
      },
    };
  }

  dispose(): void {
    for (const p of this.values()) p.dispose();
  }
}

export interface LivePanelSpec<W> {
  extensionUri: vscode.Uri;
  /** Names the view in logs and error messages, e.g. "preview". */
  name: string;
  /** The view's webviewMessageSchema: what its page may post. */
  messages: z.ZodMiniType<W>;
  log: vscode.LogOutputChannel;
}

/**
 * A panel showing the newest of a series of computed messages (H), answering its page's messages
 * (W). Computations overlap, since a slow one can still run when a change starts the next, so
 * each is numbered and an older one never overwrites a newer one; bursts of changes are debounced.
 */
export abstract class LivePanel<H, W extends { type: string }> implements KeyedPanel {
  protected readonly disposables: vscode.Disposable[] = [];
  /** The newest message computed (the page may not have drawn it yet). */
  protected latest: H | undefined;
  protected disposed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;
  /** The newest computation, finished or not. */
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    readonly panel: vscode.WebviewPanel,
    spec: LivePanelSpec<W>,
    private readonly onDisposed: () => void,
  ) {
    panel.webview.options = webviewOptions(spec.extensionUri);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage(messageReceiver(spec.name, spec.messages, spec.log, (m) => this.handle(m))),
    );
  }

  abstract get key(): string;

  protected abstract handle(message: W): Promise<void>;

  /**
   * Runs one computation. Undefined when the panel closed meanwhile; else the message, `newest`
   * when no later computation started meanwhile (only then does it become `latest`).
   */
  protected computeNewest(compute: () => Promise<H>): Promise<{ message: H; newest: boolean } | undefined> {
    const gen = ++this.generation;
    const run = (async () => {
      const message = await compute();
      if (this.disposed) return undefined;
      const newest = gen === this.generation;
      if (newest) this.latest = message;
      return { message, newest };
    })();
    this.running = run;
    return run;
  }

  /** The message of the newest computation once it has finished; undefined when the panel closed. */
  protected async newest(): Promise<H | undefined> {
    for (;;) {
      const run = this.running;
      await run.catch(() => undefined);
      if (run === this.running) return this.disposed ? undefined : this.latest;
    }
  }

  /** Computes and posts the message to the page; undefined, and nothing posted, when it is not the newest. */
  protected async refresh(compute: () => Promise<H>): Promise<H | undefined> {
    const outcome = await this.computeNewest(compute);
    if (!outcome?.newest) return undefined;
    await this.panel.webview.postMessage(outcome.message);
    return outcome.message;
  }

  /** Runs `run` once `ms` pass without another call. */
  protected debounce(ms: number, run: () => Promise<unknown>): void {
    if (this.disposed) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void run();
    }, Math.max(0, ms));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.onDisposed();
  }
}
