// Loading a template for a run: the editor's text (unsaved edits included), validated once; a
// template with errors never reaches the judge, and the message says where to look.
import * as vscode from 'vscode';
import { isTemplateChoice } from '../../core/workspace/choices';
import { judgeFromTemplate, type PreparedJudge } from '../../core/judge/engine/prepare';
import { parseTemplate } from '../../core/template';
import { validationOf } from '../language/validation';
import type { Studio } from '../studio';

export type LoadedTemplate = { ok: true; judge: PreparedJudge; file: string } | { ok: false; message: string };

export function baseName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}

export async function loadTemplate(studio: Studio, uri: vscode.Uri): Promise<LoadedTemplate> {
  const file = baseName(uri);
  let doc: vscode.TextDocument;
  try {
    doc = await vscode.workspace.openTextDocument(uri);
  } catch (e) {
    return { ok: false, message: `Cannot open the template ${file}: ${(e as Error).message}` };
  }
  const template = studio.template(doc);
  const errors = validationOf(template).filter((d) => d.severity === 'error');
  if (errors.length || !template.config) {
    const shown = errors.slice(0, 3).map((d) => `line ${d.line}: ${d.message}`).join('; ');
    const more = errors.length > 3 ? `; and ${errors.length - 3} more` : '';
    return { ok: false, message: `${file} has ${errors.length} error${errors.length === 1 ? '' : 's'} (${shown}${more}). Fix them (see the Problems view) before running the judge.` };
  }
  return { ok: true, judge: judgeFromTemplate(template), file };
}

/** `.judge` files in the workspace whose metric name is `metric` (front matter parsed, body ignored). */
export async function templatesNamed(metric: string): Promise<vscode.Uri[]> {
  const found: vscode.Uri[] = [];
  for (const uri of (await vscode.workspace.findFiles('**/*.judge', '**/node_modules/**', 500)).filter((u) => isTemplateChoice(vscode.workspace.asRelativePath(u, false)))) {
    try {
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      const text = open ? open.getText() : new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
      if (parseTemplate(text).config?.name === metric) found.push(uri);
    } catch {
      // an unreadable file is simply not a match
    }
  }
  return found;
}

/** The pointwise scale the view draws (the engine's default when the template gives none). */
export function scaleOf(judge: PreparedJudge): { min: number; max: number } | null {
  return judge.config.kind === 'pointwise' ? (judge.config.scale ?? { min: 1, max: 5 }) : null;
}
