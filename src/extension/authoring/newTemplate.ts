// New Judge Template: pick a kind and a name; a valid template and a two-row sample dataset are
// written beside each other, then opened with the preview. Existing files are never replaced.
import * as vscode from 'vscode';
import type { Studio } from '../studio';
import { freeName, nameProblem, starter, STARTERS, type StarterKind } from './model/starters';

/** Command arguments (tests, automation): skip the prompts. */
export interface NewTemplateArgs {
  kind?: StarterKind;
  name?: string;
  /** Folder to write into; default: the first workspace folder. */
  folder?: string;
}

export function registerNewTemplate(studio: Studio): void {
  studio.push(
    vscode.commands.registerCommand('judgeStudio.newTemplate', async (args?: NewTemplateArgs) => {
      try {
        return await create(args ?? {});
      } catch (e) {
        studio.log.error('new template failed', e);
        void vscode.window.showErrorMessage(`Judge Studio could not create the template: ${e instanceof Error ? e.message : String(e)}`);
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

function defaultName(kind: StarterKind): string {
  return kind === 'hhh' ? 'hhh' : kind === 'criteria' ? 'answer_quality' : kind === 'pairwise' ? 'preference' : kind === 'pass-fail' ? 'instruction_following' : 'helpfulness';
}

/** Names the workspace's templates already use (by file name, as New Judge Template names them), and the folder's own. */
async function takenNames(dir: vscode.Uri): Promise<Set<string>> {
  const found = await vscode.workspace.findFiles('**/*.judge', '**/{node_modules,.judge-studio}/**', 5_000).then((u) => u, () => []);
  const inDir = await vscode.workspace.fs.readDirectory(dir).then((e) => e.map(([n]) => n), () => []);
  return new Set([...found.map((u) => u.path), ...inDir].map((p) => p.slice(p.lastIndexOf('/') + 1)).filter((n) => n.endsWith('.judge')).map((n) => n.slice(0, -'.judge'.length)));
}

async function create(args: NewTemplateArgs): Promise<{ template: string; dataset: string } | undefined> {
  let kind = args.kind;
  if (!kind) {
    const pick = await vscode.window.showQuickPick(STARTERS.map((s) => ({ label: s.label, detail: s.detail, starter: s.kind })), { title: 'New Judge Template: what does the judge decide?', ignoreFocusOut: true });
    if (!pick) return undefined;
    kind = pick.starter;
  }
  let folder = args.folder ? vscode.Uri.file(args.folder) : vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) {
    const chosen = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Create the template here' });
    folder = chosen?.[0];
    if (!folder) return undefined;
  }
  const dir = folder;
  let name = args.name;
  if (name === undefined) {
    name = await vscode.window.showInputBox({
      title: 'New Judge Template: metric name',
      // Started from the walkthrough, the walkthrough moves on to its next step as the command
      // runs and can take the focus: the question must not close under the user's typing.
      ignoreFocusOut: true,
      prompt: 'Results columns are named after it (e.g. helpfulness/score).',
      value: freeName(defaultName(kind), await takenNames(dir)),
      validateInput: async (v) => nameProblem(v) ?? ((await exists(vscode.Uri.joinPath(dir, `${v}.judge`))) ? `${v}.judge already exists here; choose another name.` : undefined),
    });
    if (name === undefined) return undefined;
  }
  const problem = nameProblem(name);
  if (problem) throw new Error(problem);
  const templateUri = vscode.Uri.joinPath(dir, `${name}.judge`);
  const datasetUri = vscode.Uri.joinPath(dir, `${name}.jsonl`);
  if (await exists(templateUri)) throw new Error(`${name}.judge already exists; choose another name.`);
  const s = starter(kind, name);
  await vscode.workspace.fs.writeFile(templateUri, new TextEncoder().encode(s.template));
  // A dataset the user already has under that name is theirs: keep it.
  if (!(await exists(datasetUri))) await vscode.workspace.fs.writeFile(datasetUri, new TextEncoder().encode(s.dataset));
  const dataset = await vscode.workspace.openTextDocument(datasetUri);
  await vscode.window.showTextDocument(dataset, { preview: false, viewColumn: vscode.ViewColumn.One });
  const doc = await vscode.workspace.openTextDocument(templateUri);
  await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
  await vscode.commands.executeCommand('judgeStudio.openPreviewToSide', templateUri);
  return { template: templateUri.toString(), dataset: datasetUri.toString() };
}
