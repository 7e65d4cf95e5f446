// Which template judges a sample that is not in a template editor (a selection in notes.md, a
// JSONL line). Never silent guesswork: the one template that fits, the one chosen before for that
// file (workspaceState), or a quick pick of every template that fits, the last focused one first.
import * as vscode from 'vscode';
import { isTemplateChoice } from '../../core/workspace/choices';
import type { TemplateConfig } from '../../core/template';
import type { ParsedTemplate } from '../../core/template/types';
import type { Studio } from '../studio';
import { baseName } from './template';

export interface Candidate {
  uri: vscode.Uri;
  parsed: ParsedTemplate;
  config: TemplateConfig;
}

export interface Chosen {
  uri: vscode.Uri;
  /** How it was chosen, for the run view's note: "the only template that fits", "chosen for notes.md". */
  how: string;
}

export interface ChooseOptions {
  /** The file the sample is in: the choice is remembered for it. */
  file: vscode.Uri;
  /** Whether a template can judge this sample (kind, fields). */
  fits: (c: Candidate) => boolean;
  /** Listed first and preselected. */
  preferred?: vscode.Uri | undefined;
  /** What the sample is, for the quick pick's title, e.g. "the selection in notes.md". */
  what: string;
  /** Ask even when a choice is remembered (the "Choose Template" command). */
  ask?: boolean;
}

const KEY = 'templateFor:';

export class TemplatePicker {
  constructor(private readonly studio: Studio) {}

  /** Every template in open editors and the workspace whose front matter is valid. */
  async candidates(): Promise<Candidate[]> {
    const seen = new Map<string, vscode.Uri>();
    for (const d of vscode.workspace.textDocuments) if (d.languageId === 'judge' && !d.isClosed) seen.set(d.uri.toString(), d.uri);
    for (const uri of (await vscode.workspace.findFiles('**/*.judge', '{**/node_modules/**,**/.judge-studio/**}', 500)).filter((u) => isTemplateChoice(vscode.workspace.asRelativePath(u, false)))) seen.set(uri.toString(), uri);
    const out: Candidate[] = [];
    for (const uri of seen.values()) {
      try {
        const parsed = this.studio.template(await vscode.workspace.openTextDocument(uri));
        if (parsed.config) out.push({ uri, parsed, config: parsed.config });
      } catch {
        // an unreadable file is not a candidate
      }
    }
    return out.sort((a, b) => a.uri.path.localeCompare(b.uri.path));
  }

  remembered(file: vscode.Uri): vscode.Uri | undefined {
    const saved = this.studio.context.workspaceState.get<string>(KEY + file.toString());
    return saved ? vscode.Uri.parse(saved) : undefined;
  }

  async remember(file: vscode.Uri, template: vscode.Uri | undefined): Promise<void> {
    await this.studio.context.workspaceState.update(KEY + file.toString(), template?.toString());
  }

  async choose(o: ChooseOptions): Promise<Chosen | undefined> {
    const all = await this.candidates();
    const fitting = all.filter(o.fits);
    const name = baseName(o.file);
    const saved = o.ask ? undefined : this.remembered(o.file);
    const again = saved && fitting.find((c) => c.uri.toString() === saved.toString());
    if (again) return { uri: again.uri, how: `the template chosen for ${name}` };
    if (fitting.length === 1) return { uri: fitting[0]!.uri, how: 'the only template that fits' };
    if (fitting.length === 0) {
      const why = all.length ? `none of the ${all.length} template${all.length === 1 ? '' : 's'} (${all.map((c) => baseName(c.uri)).join(', ')}) fits ${o.what}` : 'there is no valid .judge template in this workspace';
      void vscode.window.showWarningMessage(`Judge Studio: ${why}.`);
      return undefined;
    }
    const preferred = o.preferred?.toString();
    const ordered = [...fitting].sort((a, b) => Number(b.uri.toString() === preferred) - Number(a.uri.toString() === preferred));
    const items = ordered.map((c) => {
      const where = vscode.workspace.asRelativePath(c.uri);
      return {
        label: baseName(c.uri),
        description: `${c.config.name} · ${c.config.kind}${c.uri.toString() === preferred ? ' · focused last' : ''}`,
        ...(where !== baseName(c.uri) ? { detail: where } : {}),
        uri: c.uri,
      };
    });
    const picked = await vscode.window.showQuickPick(items, {
      title: `Judge ${o.what} with which template?`,
      placeHolder: `${fitting.length} templates fit; the choice is remembered for ${name}`,
      matchOnDescription: true,
    });
    if (!picked) return undefined;
    await this.remember(o.file, picked.uri);
    return { uri: picked.uri, how: `picked for ${name}` };
  }
}
