// Import Judge Prompt…: pick a FastChat, promptfoo, Vertex AI or OpenAI Evals file, choose its format, and the
// templates it holds are written beside it (never over an existing file) and opened with the preview.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { countSeverities, severityCounts } from '../../core/counts';
import { importJudgePromptFile, importJudgePrompts, type ImportFormat } from '../../core/import';
import { writeTemplates } from '../../core/import/write';
import type { Studio } from '../studio';

/** Command arguments (tests, automation): skip the prompts. */
export interface ImportArgs {
  file?: string;
  format?: ImportFormat;
  /** Folder to write into; default: the source file's folder. */
  folder?: string;
}

export interface ImportOutcome {
  written: string[];
  skipped: string[];
  problems: string[];
}

const FORMATS: { format: ImportFormat; label: string; detail: string; ext: RegExp }[] = [
  { format: 'fastchat', label: 'FastChat (MT-Bench) judge prompts', detail: 'judge_prompts.jsonl: one template per prompt, verdicts read as [[N]] / [[A]]', ext: /\.jsonl$/i },
  { format: 'promptfoo', label: 'promptfoo config', detail: 'promptfooconfig.yaml: one template per llm-rubric, g-eval or model-graded-closedqa assertion', ext: /\.ya?ml$/i },
  { format: 'vertex', label: 'Vertex AI metric prompt template', detail: 'the text of a Pointwise/PairwiseMetricPromptTemplate', ext: /\.(txt|md)$/i },
  { format: 'openai-evals', label: 'OpenAI Evals eval or grader (JSON)', detail: 'an exported eval definition: one template per label_model or score_model grader', ext: /\.json$/i },
];

export function registerImport(studio: Studio): void {
  studio.push(
    vscode.commands.registerCommand('judgeStudio.importJudgePrompt', async (args?: ImportArgs) => {
      try {
        return await importPrompts(studio, args ?? {});
      } catch (e) {
        studio.log.error('import failed', e);
        void vscode.window.showErrorMessage(`Judge Studio could not import the judge prompt: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      }
    }),
  );
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

async function importPrompts(studio: Studio, args: ImportArgs): Promise<ImportOutcome | undefined> {
  let source = args.file ? vscode.Uri.file(args.file) : undefined;
  if (!source) {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      openLabel: 'Import',
      title: 'Import Judge Prompt: pick a FastChat, promptfoo, Vertex AI or OpenAI Evals file',
      filters: { 'Judge prompts': ['jsonl', 'yaml', 'yml', 'txt', 'md', 'json'], 'All files': ['*'] },
      ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
    });
    source = picked?.[0];
    if (!source) return undefined;
  }
  let format = args.format;
  if (!format) {
    const guess = FORMATS.find((f) => f.ext.test(source.path));
    const items = [...FORMATS].sort((a, b) => Number(b === guess) - Number(a === guess)).map((f) => ({ label: f.label, detail: f.detail, format: f.format }));
    const pick = await vscode.window.showQuickPick(items, { title: `Import ${path.basename(source.path)}: which format is it?`, ignoreFocusOut: true });
    if (!pick) return undefined;
    format = pick.format;
  }
  // A promptfoo config's `file://` tests are followed inside its own folder only.
  const result = source.scheme === 'file'
    ? await importJudgePromptFile(format, source.fsPath)
    : await importJudgePrompts(format, new TextDecoder().decode(await vscode.workspace.fs.readFile(source)), path.basename(source.path));
  const folder = args.folder ? vscode.Uri.file(args.folder) : vscode.Uri.joinPath(source, '..');
  const outcome: ImportOutcome = { written: [], skipped: [], problems: result.problems.map((p) => `${p.where}: ${p.severity}: ${p.message}`) };
  if (folder.scheme === 'file') {
    // Local folders: the CLI's writer, which never writes through a link and writes all or nothing.
    const written = await writeTemplates(folder.fsPath, result.templates, { force: false });
    if (!written.ok) throw new Error(written.message);
    result.templates.forEach((t, i) => (written.status[i] === 'exists' ? outcome.skipped : outcome.written).push(vscode.Uri.joinPath(folder, t.file).fsPath));
  } else {
    for (const t of result.templates) {
      const target = vscode.Uri.joinPath(folder, t.file);
      if (await exists(target)) {
        outcome.skipped.push(target.fsPath);
        continue;
      }
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(t.text));
      outcome.written.push(target.fsPath);
    }
  }
  for (const p of outcome.problems) studio.log.warn(`import ${path.basename(source.path)}: ${p}`);
  for (const s of outcome.skipped) studio.log.warn(`import: ${s} already exists; left unchanged`);
  const first = outcome.written[0];
  if (first) {
    for (const file of outcome.written) {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One, preserveFocus: file !== first });
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(first));
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
    await vscode.commands.executeCommand('judgeStudio.openPreviewToSide', doc.uri);
  }
  const found = countSeverities(result.problems);
  const summary = `Imported ${outcome.written.length} template(s) from ${path.basename(source.path)}` +
    (outcome.skipped.length ? `; ${outcome.skipped.length} left unchanged because the file exists` : '') +
    (outcome.problems.length ? `; ${severityCounts({ error: found.error, warning: found.warning })}, see the Judge Studio output` : '');
  if (outcome.problems.length || outcome.skipped.length || !first) void vscode.window.showWarningMessage(summary);
  else void vscode.window.showInformationMessage(summary);
  return outcome;
}
