// The one object that owns the extension's lifetimes: log, parsed-template cache, and the
// per-template sample selection and dataset reader shared by hover, completion, preview and runs.
import * as vscode from 'vscode';
import { parseTemplate, type ParsedTemplate } from '../core/template';
import { Samples } from './preview/datasets';
import type { SampleHost, SampleSelection } from './sampleHost';

export type { SampleSelection } from './sampleHost';

export const LANGUAGE_ID = 'judge';

export class Studio implements vscode.Disposable, SampleHost {
  private readonly parsed = new Map<string, { version: number; template: ParsedTemplate }>();
  private readonly selectionEmitter = new vscode.EventEmitter<vscode.Uri>();
  readonly disposables: vscode.Disposable[] = [];
  /** Fires with the template's URI when its sample selection changes. */
  readonly onDidChangeSelection = this.selectionEmitter.event;
  /** The chosen dataset rows, read through one cache that one file watcher keeps current. */
  readonly samples: Samples;

  constructor(
    readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {
    this.samples = new Samples(this);
    this.disposables.push(
      this.selectionEmitter,
      this.samples,
      vscode.workspace.onDidCloseTextDocument((doc) => this.parsed.delete(doc.uri.toString())),
    );
  }

  /** Parse once per document version; every feature shares the result. */
  template(doc: vscode.TextDocument): ParsedTemplate {
    const key = doc.uri.toString();
    const hit = this.parsed.get(key);
    if (hit && hit.version === doc.version) return hit.template;
    const template = parseTemplate(doc.getText());
    this.parsed.set(key, { version: doc.version, template });
    return template;
  }

  selection(template: vscode.Uri): SampleSelection | undefined {
    return this.context.workspaceState.get<SampleSelection>(`sample:${template.toString()}`);
  }

  async setSelection(template: vscode.Uri, selection: SampleSelection | undefined): Promise<void> {
    await this.context.workspaceState.update(`sample:${template.toString()}`, selection);
    this.selectionEmitter.fire(template);
  }

  push(...items: vscode.Disposable[]): void {
    this.disposables.push(...items);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0).reverse()) d.dispose();
  }
}

export function isJudgeDocument(doc: vscode.TextDocument): boolean {
  return doc.languageId === LANGUAGE_ID;
}
