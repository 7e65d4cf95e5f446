// Command ids and their arguments. Commands take a Uri (explorer, CodeLens) or an options object
// (tests, other features); anything else is ignored in favour of the active editor.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { z } from 'zod';

export const COMMANDS = {
  runJudge: 'judgeStudio.runJudge',
  runOnSelection: 'judgeStudio.runJudgeOnSelection',
  runOnDataset: 'judgeStudio.runJudgeOnDataset',
  showResultRow: 'judgeStudio.showResultRow',
  openHistoryEntry: 'judgeStudio.openHistoryEntry',
  refreshHistory: 'judgeStudio.refreshHistory',
} as const;

const uriLike = z.union([z.string().min(1), z.custom<vscode.Uri>((v) => v instanceof vscode.Uri, 'expected a Uri')]);

export const runArgsSchema = z.object({
  template: uriLike.optional(),
  dataset: uriLike.optional(),
  /** 1-based dataset row. */
  row: z.number().int().positive().optional(),
  /** Use the preview's sample row without asking. */
  current: z.boolean().optional(),
  /** Resume: true (the last interrupted batch), false (start over) or a results file. */
  resume: z.union([z.boolean(), uriLike]).optional(),
  rows: z.object({ from: z.number().int().positive().optional(), to: z.number().int().positive().optional() }).optional(),
  open: z.boolean().optional(),
});
export type RunArgs = z.infer<typeof runArgsSchema>;

export const showRowArgsSchema = z.object({
  file: uriLike,
  row: z.number().int().positive(),
  metric: z.string().min(1).optional(),
});

/** A Uri argument as `{template}`, an options object as is; undefined when there are no usable arguments. */
export function runArgs(arg: unknown): RunArgs | undefined {
  if (arg instanceof vscode.Uri) return { template: arg };
  const parsed = runArgsSchema.safeParse(arg);
  return parsed.success ? parsed.data : undefined;
}

/** A Uri, a URI string (`file:///…`), an absolute path, or a path relative to the first workspace folder. */
export function toUri(value: string | vscode.Uri): vscode.Uri {
  if (value instanceof vscode.Uri) return value;
  if (/^[a-z][a-z0-9+.-]+:/i.test(value) && !/^[a-z]:[\\/]/i.test(value)) return vscode.Uri.parse(value);
  const folder = vscode.workspace.workspaceFolders?.[0];
  return path.isAbsolute(value) || !folder ? vscode.Uri.file(value) : vscode.Uri.joinPath(folder.uri, ...value.split(/[\\/]/));
}
