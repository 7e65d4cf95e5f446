// Ticks the walkthrough's steps for work already done, however it was done: the package.json
// steps complete on `onContext:judgeStudio.walkthrough.<step>` as well as on their commands, and
// this feature sets those keys from what the workspace shows (templates, run history, labels, the
// endpoint setting) and from the views a person opens (by any command, CodeLens or button).
import * as vscode from 'vscode';
import { readSettings } from '../providers/resolve';
import { HISTORY_DIR } from '../run/model/history';
import type { Studio } from '../studio';
import { contextKey, historyKinds, stepOfView, stepsDone, type WalkthroughStep, type WorkFacts } from './model';

const SEEN_KEY = 'walkthrough.seen';
const LABELS_GLOB = '**/*.labels.jsonl'; // core/labels/file.ts: beside the results file

export function registerWalkthrough(studio: Studio): void {
  const seen = new Set<WalkthroughStep>(studio.context.workspaceState.get<WalkthroughStep[]>(SEEN_KEY) ?? []);
  const ticked = new Set<WalkthroughStep>();
  const tick = (steps: Iterable<WalkthroughStep>) => {
    for (const step of steps) {
      if (ticked.has(step)) continue;
      ticked.add(step);
      void vscode.commands.executeCommand('setContext', contextKey(step), true);
    }
  };
  const see = (step: WalkthroughStep) => {
    tick([step]);
    if (seen.has(step)) return;
    seen.add(step);
    void studio.context.workspaceState.update(SEEN_KEY, [...seen]);
  };

  let pending: NodeJS.Timeout | undefined;
  const refresh = () => {
    clearTimeout(pending);
    // File events come in bursts (a batch appends to its history line by line): look once they settle.
    pending = setTimeout(() => void facts(seen).then((f) => tick(stepsDone(f)), (e: unknown) => studio.log.warn(`walkthrough: could not read the workspace's earlier work: ${String(e)}`)), 500);
  };

  const watchers = ['**/*.judge', `**/${HISTORY_DIR}/*.jsonl`, LABELS_GLOB].map((glob) => vscode.workspace.createFileSystemWatcher(glob, false, false, true));
  const openViews = () => {
    for (const group of vscode.window.tabGroups.all)
      for (const tab of group.tabs) {
        const step = tab.input instanceof vscode.TabInputWebview ? stepOfView(tab.input.viewType) : undefined;
        if (step) see(step);
      }
  };
  studio.push(
    ...watchers,
    ...watchers.flatMap((w) => [w.onDidCreate(refresh), w.onDidChange(refresh)]),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('judgeStudio') && refresh()),
    vscode.workspace.onDidGrantWorkspaceTrust(refresh),
    vscode.window.tabGroups.onDidChangeTabs(openViews),
    { dispose: () => clearTimeout(pending) },
  );
  openViews();
  refresh();
}

async function facts(seen: ReadonlySet<WalkthroughStep>): Promise<WorkFacts> {
  const [templates, histories, labels] = await Promise.all([
    vscode.workspace.findFiles('**/*.judge', '{**/node_modules/**,**/.judge-studio/**}', 1),
    vscode.workspace.findFiles(`**/${HISTORY_DIR}/*.jsonl`, '**/node_modules/**', 50),
    vscode.workspace.findFiles(LABELS_GLOB, '**/node_modules/**', 1),
  ]);
  const history = new Set<string>();
  for (const file of histories) {
    if (history.has('run') && history.has('batch')) break;
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    for (const kind of historyKinds(text)) history.add(kind);
  }
  return {
    templates: templates.length > 0,
    previewSeen: seen.has('preview'),
    endpoint: readSettings().baseUrl !== '',
    history,
    calibrationSeen: seen.has('calibrate') || labels.length > 0,
  };
}
