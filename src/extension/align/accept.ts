// Accept: the candidate becomes the template's next version. The old text and the text the
// candidate was judged with are kept as snapshots (the compare view diffs them), and the
// held-out runs of both versions go into the run history, so Compare Runs shows before and after.
// The edit goes through the editor (one undo step); a template edited since the alignment, or
// with unsaved changes, is refused rather than overwritten.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { candidateFile, resultsFile } from '../../core/align';
import { snapshotTemplate } from '../../core/compare';
import { readDatasetFile } from '../../core/dataset';
import { prepareJudge } from '../../core/judge/engine/prepare';
import { templateHash } from '../../core/results';
import { parseTemplate } from '../../core/template';
import type { History } from '../run/history';
import { entryId, type BatchEntry } from '../run/model/history';
import { summarize } from '../run/model/summary';
import type { ParsedReport } from './model';

export interface AcceptRequest {
  dir: vscode.Uri;
  template: vscode.Uri;
  id: string;
  report: ParsedReport;
  /** The dataset the rows came from, as the history names it. */
  dataset: string;
}

export type AcceptOutcome = { ok: true; before: vscode.Uri; after: vscode.Uri } | { ok: false; message: string };

export async function acceptCandidate(history: History, r: AcceptRequest): Promise<AcceptOutcome> {
  const file = vscode.Uri.file(candidateFile(r.dir.fsPath, r.id));
  const text = await fs.readFile(file.fsPath, 'utf8').catch(() => undefined);
  if (text === undefined) return { ok: false, message: `${vscode.workspace.asRelativePath(file, false)} is gone; run Align Judge with Labels again.` };
  const prepared = prepareJudge(text);
  if (!prepared.ok) return { ok: false, message: `${vscode.workspace.asRelativePath(file, false)} has errors now (it was edited?); fix them or align again.` };
  const doc = await vscode.workspace.openTextDocument(r.template);
  const shown = vscode.workspace.asRelativePath(r.template, false);
  if (doc.isDirty) return { ok: false, message: `${shown} has unsaved changes; save or revert them, then accept.` };
  const current = doc.getText();
  const from = (parseTemplate(text).frontMatter?.data as { aligned_from?: unknown } | undefined)?.aligned_from;
  if (templateHash(current) !== r.report.template_hash || from !== r.report.template_hash) {
    return { ok: false, message: `${shown} changed since it was aligned (version ${r.report.template_hash}, now ${templateHash(current)}); align it again so the figures are about this version.` };
  }
  const root = history.rootFor(r.template);
  const keep = (t: string) => snapshotTemplate(root.fsPath, t);
  await keep(current);
  await keep(text);

  const edit = new vscode.WorkspaceEdit();
  edit.replace(r.template, new vscode.Range(doc.positionAt(0), doc.positionAt(current.length)), text);
  if (!(await vscode.workspace.applyEdit(edit)) || !(await doc.save())) return { ok: false, message: `${shown} could not be written.` };

  const before = vscode.Uri.file(resultsFile(r.dir.fsPath, 'baseline', 'heldout'));
  const after = vscode.Uri.file(resultsFile(r.dir.fsPath, r.id, 'heldout'));
  const time = new Date();
  const model = r.report.model;
  for (const [results, at, label] of [[before, time, 'before'], [after, new Date(time.getTime() + 1), 'after']] as const) {
    const entry = await heldoutEntry(history, root, { results, at, template: r.template, metric: r.report.metric, kind: r.report.kind, model, dataset: `${r.dataset} (held-out rows, ${label} align)` });
    if (entry) await history.append(root, entry);
  }
  return { ok: true, before, after };
}

async function heldoutEntry(
  history: History,
  root: vscode.Uri,
  e: { results: vscode.Uri; at: Date; template: vscode.Uri; metric: string; kind: 'pointwise' | 'pairwise'; model: string; dataset: string },
): Promise<BatchEntry | undefined> {
  const data = await readDatasetFile(e.results.fsPath).catch(() => undefined);
  if (!data) return undefined;
  const lines = data.rows.flatMap((item) => ('record' in item ? [item.record] : []));
  const summary = summarize(lines, e.metric, e.kind);
  const failed = summary.failed;
  return {
    v: 1,
    id: entryId(e.at, randomBytes(3).toString('hex')),
    time: e.at.toISOString(),
    template: history.relative(root, e.template),
    metric: e.metric,
    kind: e.kind,
    model: e.model,
    type: 'batch',
    dataset: e.dataset,
    results: history.relative(root, e.results),
    resumed: false,
    interrupted: false,
    rows: { judged: lines.length, ok: lines.length - failed, failed, skipped: 0, alreadyDone: 0 },
    summary,
    elapsedMs: 0,
  };
}
