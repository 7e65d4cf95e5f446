// "Judge Studio: Review Judgments": label a results file's rows one at a time with the keyboard,
// uncertain rows first, into a labels file beside it; see the judge's agreement as you go.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isTemplateChoice } from '../../core/workspace/choices';
import * as z from 'zod/mini';
import { formatOf, readDatasetFile, type DatasetRow } from '../../core/dataset';
import { humanLabels, labelsFileFor, MissingKeys, readLabels, templateIfNamed, type QueueOrder } from '../../core/labels';
import { keyFields, lastLines, latestOnly } from '../../core/results';
import type { ParsedTemplate } from '../../core/template';
import { reviewStateSchema, type ReviewView } from '../../protocol/review';
import type { Studio } from '../studio';
import { notDone } from '../notDone';
import { webviewOptions } from '../webview/page';
import { PanelSet } from '../webview/panels';
import { REVIEW_VIEW_TYPE, ReviewPanel, reviewKey } from './panel';
import { ReviewSession } from './session';
import { defaultAnnotator, judgedMetrics, numberedByRow, pairOf, templateByHash, templateHashes } from './setup';
import { activeFileUri } from '../activeFile';

export const REVIEW_COMMAND = 'judgeStudio.reviewJudgments';

// `keys` and `labels`: Align's "Review Disagreements" opens only the rows a candidate gets wrong, labelling into the data's labels file.
const argsSchema = z.object({
  file: z.optional(z.string()),
  metric: z.optional(z.string()),
  template: z.optional(z.string()),
  keys: z.optional(z.array(z.string().check(z.regex(/^[0-9a-f]{16}$/)))),
  labels: z.optional(z.string()),
});

export function registerReview(studio: Studio): void {
  const panels = new PanelSet<ReviewPanel>();

  const openReview = async (file: vscode.Uri, given: { metric?: string; template?: string; keys?: string[]; labels?: string }, existingPanel?: vscode.WebviewPanel): Promise<ReviewView | undefined> => {
    const display = vscode.workspace.asRelativePath(file, false);
    let rows: DatasetRow[];
    try {
      formatOf(file.fsPath);
      const data = await readDatasetFile(file.fsPath);
      // The last line per `_row` stands: resume appends retried rows.
      const last = await lastLines(data.rows);
      const latest: DatasetRow[] = [];
      for await (const item of latestOnly(data.rows, last)) latest.push(item as DatasetRow);
      rows = numberedByRow(latest);
      if (given.keys) {
        const keys = new Set(given.keys);
        rows = rows.filter((r) => typeof r.record._key === 'string' && keys.has(r.record._key));
      }
    } catch (e) {
      existingPanel?.dispose();
      void vscode.window.showErrorMessage(`Judge Studio: ${(e as Error).message.split(file.fsPath).join(display)}`);
      return undefined;
    }
    const metrics = judgedMetrics(rows);
    let metric = given.metric?.trim();
    if (!metric) {
      if (metrics.length === 0) {
        void vscode.window.showErrorMessage(`Judge Studio: ${display} has no judge verdicts to review ("<metric>/score" or "<metric>/pairwise_choice"); run a template on a dataset first.`);
        return undefined;
      }
      metric = metrics.length === 1 ? metrics[0]?.metric : (await vscode.window.showQuickPick(metrics.map((m) => ({ label: m.metric, description: `${m.kind}, ${m.rows} rows` })), { title: `Review Judgments: which metric in ${display}?` }))?.label;
      if (!metric) return notDone(studio.log, 'Review Judgments', `no metric of ${display} was chosen`);
    }
    const kind = metrics.find((m) => m.metric === metric)?.kind ?? 'pointwise';
    const existing = panels.get(reviewKey(file, metric));
    if (existing && !existingPanel) {
      existing.panel.reveal(undefined, false);
      return existing.view;
    }
    const labelsUri = given.labels ? vscode.Uri.file(given.labels) : vscode.Uri.file(labelsFileFor(file.fsPath));
    const labels = await readLabels(labelsUri.fsPath).catch(() => ({ lines: [], skipped: [] }));
    const found = await findTemplate(metric, given.template, templateHashes(rows, metric));
    const template = found?.template;
    const fields = template ? keyFields(template) : humanLabels(labels.lines, metric).fields;
    const config = vscode.workspace.getConfiguration('judgeStudio.review', file);
    const annotator = config.get<string>('annotator')?.trim() || (await defaultAnnotator(vscode.workspace.getWorkspaceFolder(file)?.uri.fsPath ?? path.dirname(file.fsPath), vscode.workspace.isTrusted));
    const pair = kind === 'pairwise' ? pairOf(template, rows) : undefined;
    let session: ReviewSession;
    try {
      session = new ReviewSession(
        {
          file: file.fsPath,
          display,
          metric,
          kind,
          scale: kind === 'pointwise' ? (template?.config?.scale ?? scaleOf(rows, metric)) : undefined,
          rows,
          fields,
          inputFields: template ? keyFields(template) : undefined,
          pair,
          annotator,
          labelsFile: vscode.workspace.asRelativePath(labelsUri, false),
          template: found ? vscode.workspace.asRelativePath(found.uri, false) : undefined,
          order: config.get<QueueOrder>('order') === 'random' ? 'random' : 'uncertain',
          seed: String(config.get<string | number>('seed') ?? '1'),
          blind: config.get<boolean>('blind') ?? true,
          targetWidth: clampWidth(config.get<number>('targetWidth') ?? 0.2),
        },
        labels.lines,
      );
    } catch (e) {
      existingPanel?.dispose();
      if (e instanceof MissingKeys) {
        void vscode.window.showErrorMessage(
          `Judge Studio: ${display} was written before rows carried "_key", and no template named "${metric}" was found in the workspace, so the rows' keys cannot be computed. ` +
            'Open the folder that holds the template, or run the template again.',
        );
        return undefined;
      }
      throw e;
    }
    const webviewPanel =
      existingPanel ??
      vscode.window.createWebviewPanel(REVIEW_VIEW_TYPE, `Review: ${metric}`, activeFileUri()?.toString() === file.toString() ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active, {
        ...webviewOptions(studio.context.extensionUri),
        retainContextWhenHidden: true,
      });
    const target = { file, metric, labelsFile: labelsUri, template: found?.uri };
    const panel = panels.add((forget) => new ReviewPanel(webviewPanel, target, session, studio, forget));
    return panel.view;
  };

  const command = async (arg: unknown): Promise<ReviewView | undefined> => {
    const parsed = argsSchema.safeParse(arg);
    const given = parsed.success ? parsed.data : {};
    const file = arg instanceof vscode.Uri ? arg : await targetFile(given.file);
    if (!file) return notDone(studio.log, 'Review Judgments', 'no results file was chosen');
    const labels = given.labels ? targetInWorkspace(given.labels) : undefined;
    if (given.labels && !labels) return void vscode.window.showErrorMessage('Judge Studio: the labels file must be inside the workspace.');
    return openReview(file, {
      ...(given.metric ? { metric: given.metric } : {}),
      ...(given.template ? { template: given.template } : {}),
      ...(given.keys ? { keys: given.keys } : {}),
      ...(labels ? { labels } : {}),
    });
  };

  studio.push(
    panels,
    vscode.commands.registerCommand(REVIEW_COMMAND, command),
    vscode.window.registerWebviewPanelSerializer(
      REVIEW_VIEW_TYPE,
      panels.serializer(reviewStateSchema, (s) => reviewKey(vscode.Uri.file(s.file), s.metric), (panel, s) => void openReview(vscode.Uri.file(s.file), { metric: s.metric }, panel)),
    ),
  );
}

/** A labels file path given by a command, when it lies inside a workspace folder and is JSONL. */
function targetInWorkspace(given: string): string | undefined {
  const uri = vscode.Uri.file(path.resolve(given));
  return vscode.workspace.getWorkspaceFolder(uri) && /\.jsonl$/i.test(uri.fsPath) ? uri.fsPath : undefined;
}

async function targetFile(given: string | undefined): Promise<vscode.Uri | undefined> {
  if (given) {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return path.isAbsolute(given) || !folder ? vscode.Uri.file(path.resolve(given)) : vscode.Uri.joinPath(folder.uri, given);
  }
  // The active editor, else the active tab (the Results Viewer, or a large file open without a text editor).
  const active = activeFileUri();
  if (active && active.scheme === 'file' && /\.(jsonl|ndjson|json|csv)$/i.test(active.path)) return active;
  const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'Results files': ['jsonl', 'ndjson', 'json', 'csv'] }, openLabel: 'Review', title: 'Review Judgments: choose a results file' });
  return picked?.[0];
}

/**
 * The workspace template whose `name` is the metric. Of several, the one whose text the rows'
 * `m/template_hash` names; the user picks only when no hash (or more than one) decides.
 */
async function findTemplate(metric: string, given: string | undefined, hashes: ReadonlySet<string>): Promise<{ uri: vscode.Uri; template: ParsedTemplate } | undefined> {
  if (given) {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const uri = path.isAbsolute(given) || !folder ? vscode.Uri.file(given) : vscode.Uri.joinPath(folder.uri, given);
    const template = await templateIfNamed(uri.fsPath, metric);
    return template ? { uri, template } : undefined;
  }
  const uris = (await vscode.workspace.findFiles('**/*.judge', '**/node_modules/**', 500)).filter((u) => isTemplateChoice(vscode.workspace.asRelativePath(u, false)));
  const found: { uri: vscode.Uri; template: ParsedTemplate }[] = [];
  for (const uri of uris) {
    const template = await templateIfNamed(uri.fsPath, metric);
    if (template) found.push({ uri, template });
  }
  if (found.length <= 1) return found[0];
  const byHash = templateByHash(found, hashes);
  if (byHash) return byHash;
  const picked = await vscode.window.showQuickPick(
    found.map((f) => ({ label: vscode.workspace.asRelativePath(f.uri, false), f })),
    { title: `Several templates are named "${metric}": which one judged this file?` },
  );
  return picked?.f;
}

/** Without a template: the range of the judge's scores, widened to include 1..5 or 0..1 as seems right. */
function scaleOf(rows: readonly DatasetRow[], metric: string): { min: number; max: number } | undefined {
  let min = Infinity;
  let max = -Infinity;
  for (const { record } of rows) {
    const v = record[`${metric}/score`];
    if (typeof v === 'number' && Number.isInteger(v)) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
  }
  if (!Number.isFinite(min)) return undefined;
  return min >= 0 && max <= 1 ? { min: 0, max: 1 } : { min: Math.min(min, 1), max: Math.max(max, 5) };
}

function clampWidth(w: number): number {
  return w > 0 && w < 1 ? w : 0.2;
}
