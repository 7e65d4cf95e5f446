// "Compare Runs" from the Run History view: two batches selected together (Ctrl/Cmd+click), or
// one batch and then the other from a quick pick, open in the compare view, the older as A.
import * as vscode from 'vscode';
import { notDone, type InfoLog } from '../notDone';
import type { History } from '../run/history';
import { newestPerResults, shortTime, type BatchEntry } from '../run/model/history';
import { summaryLines } from '../run/model/summary';

export const COMPARE_HISTORY_COMMAND = 'judgeStudio.compareHistoryRuns';
/** The compare view's command (src/extension/compare); it takes {a, b, metric, metricB}. */
const COMPARE_RUNS = 'judgeStudio.compareRuns';

/** A batch as the tree hands it to commands: its history entry and the folder its paths are relative to. */
export interface BatchRef {
  entry: BatchEntry;
  root: vscode.Uri;
}

function isBatchNode(n: unknown): n is BatchRef & { type: 'batch' } {
  if (typeof n !== 'object' || n === null) return false;
  const o = n as { type?: unknown; root?: unknown; entry?: { results?: unknown } };
  return o.type === 'batch' && o.root instanceof vscode.Uri && typeof o.entry?.results === 'string';
}

/**
 * The two batches to compare: menus pass the clicked node and every selected node; the view's
 * title button passes nothing, so the view's selection counts. Missing ones are picked.
 */
export async function compareFromHistory(log: InfoLog, history: History, selection: readonly unknown[], clicked?: unknown, selected?: unknown): Promise<unknown> {
  const given = (Array.isArray(selected) ? selected : clicked !== undefined ? [clicked] : selection).filter(isBatchNode);
  const unique = given.filter((n, i) => given.findIndex((m) => m.entry.id === n.entry.id) === i);
  if (unique.length > 2) {
    void vscode.window.showWarningMessage(`Judge Studio: select two batches to compare, not ${unique.length}.`);
    return undefined;
  }
  let [first, second]: (BatchRef | undefined)[] = unique;
  first ??= await pickBatch(history, 'Compare Runs: the first run', undefined);
  if (!first) return notDone(log, 'Compare Runs', 'no first run was chosen');
  second ??= await pickBatch(history, `Compare ${first.entry.metric} on ${first.entry.dataset} (${shortTime(first.entry.time)}) with which run?`, first);
  if (!second) return notDone(log, 'Compare Runs', `no run was chosen to compare ${first.entry.metric} on ${first.entry.dataset} with`);
  const [a, b] = first.entry.time <= second.entry.time ? [first, second] : [second, first];
  return vscode.commands.executeCommand(COMPARE_RUNS, {
    a: history.resolve(a.root, a.entry.results).fsPath,
    b: history.resolve(b.root, b.entry.results).fsPath,
    metric: a.entry.metric,
    metricB: b.entry.metric,
  });
}

/** A batch of the history, newest first; runs of the other one's metric and dataset lead. */
async function pickBatch(history: History, title: string, other: BatchRef | undefined): Promise<BatchRef | undefined> {
  const exclude = other ? history.resolve(other.root, other.entry.results).toString() : undefined;
  const all: (BatchRef & { results: string })[] = [];
  for (const f of await history.files()) {
    for (const entry of f.entries) {
      if (entry.type === 'batch') all.push({ entry, root: f.root, results: history.resolve(f.root, entry.results).toString() });
    }
  }
  // A run resumed later is listed once, with the row count of the whole file.
  const refs: BatchRef[] = newestPerResults(all).filter((r) => r.results !== exclude);
  const rank = (r: BatchRef) => (other && r.entry.metric === other.entry.metric ? 0 : 2) + (other && r.entry.dataset === other.entry.dataset ? 0 : 1);
  refs.sort((x, y) => rank(x) - rank(y) || y.entry.time.localeCompare(x.entry.time));
  if (refs.length === 0) {
    void vscode.window.showInformationMessage(other ? 'Judge Studio: the history has no other batch to compare with. Run the judge on a dataset again first.' : 'Judge Studio: the history has no batches yet. Run the judge on a dataset first.');
    return undefined;
  }
  const items = refs.map((ref) => ({
    label: `${ref.entry.metric} on ${ref.entry.dataset}`,
    description: `${shortTime(ref.entry.time)} · ${ref.entry.model} · ${summaryLines(ref.entry.summary)[0] ?? ''}`,
    detail: ref.entry.results,
    ref,
  }));
  const picked = await vscode.window.showQuickPick(items, { title, matchOnDescription: true, matchOnDetail: true });
  return picked?.ref;
}
