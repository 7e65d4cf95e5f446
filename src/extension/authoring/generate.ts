// Generate Rubric / Generate Evaluation Steps in the editor: ask the configured judge (endpoint or
// vscode.lm), then show the proposed template beside the current one in VS Code's diff editor.
// Nothing changes until the user accepts (✓ in the diff's title bar); a notification says so until then.
import * as vscode from 'vscode';
import { generateSection, STRICTNESS, type GenerateKind, type Strictness } from '../../core/generate';
import { defaultCacheDir, DiskCache } from '../../core/judge/engine/cache';
import { isJudgeDocument, type Studio } from '../studio';
import { resolveJudge } from '../providers/resolve';

export const PROPOSAL_SCHEME = 'judge-studio-proposal';

/** Command arguments (tests, code actions): skip the prompts. */
export interface GenerateArgs {
  uri?: string;
  strictness?: Strictness;
  domain?: string;
}

export type GenerateResult = { ok: true; proposal: string } | { ok: false; message: string };

interface Proposal {
  target: vscode.Uri;
  version: number;
  text: string;
  what: GenerateKind;
}

/** Proposed templates, served read-only to the diff editor and kept until accepted or discarded. */
class Proposals implements vscode.TextDocumentContentProvider {
  private readonly items = new Map<string, Proposal>();
  /** Resolves each proposal's `settled` promise when it is accepted, discarded or its diff closed. */
  private readonly waiting = new Map<string, () => void>();
  private readonly opened = new Set<string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  add(p: Proposal): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PROPOSAL_SCHEME, path: p.target.path, query: `${p.what}-${Date.now()}` });
    this.items.set(uri.toString(), p);
    return uri;
  }
  get(uri: vscode.Uri): Proposal | undefined {
    return this.items.get(uri.toString());
  }
  delete(uri: vscode.Uri): void {
    this.items.delete(uri.toString());
    this.waiting.get(uri.toString())?.();
    this.waiting.delete(uri.toString());
    this.opened.delete(uri.toString());
  }
  /** Resolves once the proposal is gone (accepted, discarded, or its diff closed). */
  settled(uri: vscode.Uri): Promise<void> {
    if (!this.items.has(uri.toString())) return Promise.resolve();
    return new Promise((resolve) => this.waiting.set(uri.toString(), resolve));
  }
  /** The proposal's diff is open: from now on, closing it discards the proposal. */
  shown(uri: vscode.Uri): void {
    this.opened.add(uri.toString());
  }
  /** Proposals whose diff was opened and is no longer in any tab. */
  orphans(): vscode.Uri[] {
    const shown = new Set(
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).flatMap((t) => (t.input instanceof vscode.TabInputTextDiff ? [t.input.modified.toString()] : [])),
    );
    return [...this.opened].filter((k) => this.items.has(k) && !shown.has(k)).map((k) => vscode.Uri.parse(k));
  }
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.items.get(uri.toString())?.text ?? '';
  }
  dispose(): void {
    for (const done of this.waiting.values()) done();
    this.changed.dispose();
  }
}

export function registerGenerate(studio: Studio): void {
  const proposals = new Proposals();
  const generate = (what: GenerateKind) => async (arg?: GenerateArgs | vscode.Uri): Promise<GenerateResult> => {
    const args: GenerateArgs = arg instanceof vscode.Uri ? { uri: arg.toString() } : (arg ?? {});
    try {
      return await run(studio, proposals, what, args);
    } catch (e) {
      studio.log.error(`generate ${what} failed`, e);
      const message = `Judge Studio could not generate the ${label(what)}: ${e instanceof Error ? e.message : String(e)}`;
      void vscode.window.showErrorMessage(message);
      return { ok: false, message };
    }
  };
  const current = (arg?: vscode.Uri): vscode.Uri | undefined => {
    const uri = arg ?? vscode.window.activeTextEditor?.document.uri;
    if (uri?.scheme === PROPOSAL_SCHEME) return uri;
    // The diff editor's active side may be the original: find the proposal shown against it.
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    return tab?.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === PROPOSAL_SCHEME ? tab.input.modified : undefined;
  };
  studio.push(
    proposals,
    vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, proposals),
    // Closing a proposal's diff discards it: nothing would show it again.
    vscode.window.tabGroups.onDidChangeTabs((e) => {
      if (e.closed.length) for (const orphan of proposals.orphans()) proposals.delete(orphan);
    }),
    vscode.commands.registerCommand('judgeStudio.generateRubric', generate('rubric')),
    vscode.commands.registerCommand('judgeStudio.generateSteps', generate('steps')),
    vscode.commands.registerCommand('judgeStudio.acceptGenerated', (arg?: vscode.Uri) => accept(proposals, current(arg))),
    vscode.commands.registerCommand('judgeStudio.discardGenerated', (arg?: vscode.Uri) => discard(proposals, current(arg))),
  );
}

function label(what: GenerateKind): string {
  return what === 'rubric' ? 'rubric' : 'evaluation steps';
}

async function run(studio: Studio, proposals: Proposals, what: GenerateKind, args: GenerateArgs): Promise<GenerateResult> {
  const fail = (message: string): GenerateResult => {
    void vscode.window.showWarningMessage(message);
    return { ok: false, message };
  };
  const uri = args.uri ? vscode.Uri.parse(args.uri) : vscode.window.activeTextEditor?.document.uri;
  const doc = uri ? await vscode.workspace.openTextDocument(uri) : undefined;
  if (!doc || !isJudgeDocument(doc)) return fail('Judge Studio: open a .judge template to generate its ' + label(what) + '.');
  const template = studio.template(doc);

  let strictness = args.strictness;
  if (!strictness) {
    strictness = await pickStrictness(what);
    if (!strictness) return { ok: false, message: 'cancelled' };
  }
  let domain = args.domain;
  if (domain === undefined && !args.strictness) {
    const remembered = studio.context.workspaceState.get<string>('generate.domain') ?? '';
    domain = await vscode.window.showInputBox({ title: `Generate ${label(what)}: domain (optional)`, prompt: 'The field the judged responses come from, e.g. "customer support"; leave empty for none.', value: remembered });
    if (domain === undefined) return { ok: false, message: 'cancelled' };
    await studio.context.workspaceState.update('generate.domain', domain);
  }

  const resolved = await resolveJudge(studio, { interactive: true, ...(template.config && { template: template.config }) });
  if (!resolved.ok) return { ok: false, message: resolved.message };
  const judge = resolved.judge;
  const version = doc.version;
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Judge Studio: generating the ${label(what)} with ${judge.label}…`, cancellable: true },
    (_progress, token) => {
      const controller = new AbortController();
      token.onCancellationRequested(() => controller.abort());
      return generateSection(template, what, { strictness, ...(domain && { domain }) }, {
        client: judge.client,
        model: judge.model,
        structured: judge.settings.structured,
        cache: new DiskCache(defaultCacheDir(process.env)),
        cacheScope: judge.label,
        signal: controller.signal,
      });
    },
  );
  if (!outcome.ok) {
    studio.log.warn(`generate ${what}: ${outcome.message}`);
    return fail(`Judge Studio: ${outcome.message}`);
  }
  studio.log.info(`generated the ${label(what)} of ${doc.uri.fsPath} with ${judge.label}${outcome.cached ? ' (from the cache)' : ''}${outcome.repaired ? ' (after one repair)' : ''}`);
  const proposal = proposals.add({ target: doc.uri, version, text: outcome.text, what });
  await vscode.commands.executeCommand('vscode.diff', doc.uri, proposal, `${doc.uri.path.split('/').pop()} ↔ generated ${label(what)} (review, then accept)`);
  proposals.shown(proposal);
  // A notification that lasts exactly as long as the proposal: it goes away when the proposal is
  // accepted or discarded from the diff's title bar, or its diff is closed (a toast with buttons
  // would stay behind, offering to accept what is already gone). Cancel discards.
  void vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Judge Studio: review the generated ${label(what)} in the diff, then accept it with ✓ in the diff's title bar (Cancel discards it).`, cancellable: true },
    async (_progress, token) => {
      token.onCancellationRequested(() => void discard(proposals, proposal));
      await proposals.settled(proposal);
    },
  );
  return { ok: true, proposal: proposal.toString() };
}

/** How strict the generated text should be; balanced, the default, is the one preselected. */
async function pickStrictness(what: GenerateKind): Promise<Strictness | undefined> {
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { value: Strictness }>();
  pick.title = `Generate ${label(what)}: how strict should the judge be?`;
  pick.items = STRICTNESS.map((value) => ({ label: value, value, ...(value === 'balanced' ? { description: '(default)' } : {}) }));
  const balanced = pick.items.find((i) => i.value === 'balanced');
  if (balanced) pick.activeItems = [balanced];
  return new Promise<Strictness | undefined>((resolve) => {
    let chosen: Strictness | undefined;
    pick.onDidAccept(() => {
      chosen = pick.selectedItems[0]?.value ?? pick.activeItems[0]?.value;
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(chosen);
    });
    pick.show();
  });
}

async function closeDiff(proposal: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === proposal.toString());
  if (tabs.length) await vscode.window.tabGroups.close(tabs);
}

/** Replaces the template's text with the proposal (an undoable edit, left unsaved for the user). */
async function accept(proposals: Proposals, uri: vscode.Uri | undefined): Promise<boolean> {
  const p = uri && proposals.get(uri);
  if (!uri || !p) {
    void vscode.window.showInformationMessage('Judge Studio: no generated proposal is open.');
    return false;
  }
  const doc = await vscode.workspace.openTextDocument(p.target);
  if (doc.version !== p.version) {
    const choice = await vscode.window.showWarningMessage('The template changed since this was generated; accepting replaces those changes too.', { modal: true }, 'Accept Anyway');
    if (choice !== 'Accept Anyway') return false;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), p.text);
  const applied = await vscode.workspace.applyEdit(edit);
  proposals.delete(uri);
  await closeDiff(uri);
  if (applied) await vscode.window.showTextDocument(doc, { preview: false });
  return applied;
}

async function discard(proposals: Proposals, uri: vscode.Uri | undefined): Promise<void> {
  if (!uri) return;
  proposals.delete(uri);
  await closeDiff(uri);
}
