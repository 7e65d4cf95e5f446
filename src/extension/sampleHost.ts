// What the dataset sample reader needs from its owner, in a module of its own so that
// studio.ts (which creates the reader) and preview/datasets.ts (the reader) do not import each other.
import type * as vscode from 'vscode';

/** The dataset file and row chosen for a template (remembered per template in workspace state). */
export interface SampleSelection {
  dataset: string;
  row: number;
}

export interface SampleHost {
  readonly log: vscode.LogOutputChannel;
  selection(template: vscode.Uri): SampleSelection | undefined;
  setSelection(template: vscode.Uri, selection: SampleSelection | undefined): Promise<void>;
}
