// Command ids and their arguments. Commands take a Uri (explorer, CodeLens, editor menus) or an
// options object (tests, other features); anything else is ignored in favour of the active editor.
// A menu passes the clicked file's Uri: it is a template only when it is a .judge file.
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
  chooseTemplate: 'judgeStudio.chooseTemplate',
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

/**
 * A `.judge` Uri as `{template}`, an options object as is; undefined when there are no usable
 * arguments. VS Code runs editor/context and editor/title commands with the clicked resource's Uri
 * as the first argument (a Markdown or JSONL file): that file is the sample's, never the template.
 */
export function runArgs(arg: unknown): RunArgs | undefined {
  if (arg instanceof vscode.Uri) return isTemplateUri(arg) ? { template: arg } : undefined;
  const parsed = runArgsSchema.safeParse(arg);
  if (!parsed.success) return undefined;
  const template = parsed.data.template;
  if (template !== undefined && !isTemplateUri(toUri(template))) {
    throw new Error(`${typeof template === 'string' ? template : template.path} is not a .judge template: pass the template as "template" and the data as "dataset".`);
  }
  return parsed.data;
}

/** A template file: its name ends in `.judge` (or it is an open document in the judge language). */
export function isTemplateUri(uri: vscode.Uri): boolean {
  if (isTemplatePath(uri.path)) return true;
  return vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString() && d.languageId === 'judge');
}

export function isTemplatePath(p: string): boolean {
  return /\.judge$/i.test(p);
}

/** A Uri, a URI string (`file:///…`), an absolute path, or a path relative to the first workspace folder. */
export function toUri(value: string | vscode.Uri): vscode.Uri {
  if (value instanceof vscode.Uri) return value;
  if (/^[a-z][a-z0-9+.-]+:/i.test(value) && !/^[a-z]:[\\/]/i.test(value)) return vscode.Uri.parse(value);
  const folder = vscode.workspace.workspaceFolders?.[0];
  return path.isAbsolute(value) || !folder ? vscode.Uri.file(value) : vscode.Uri.joinPath(folder.uri, ...value.split(/[\\/]/));
}
