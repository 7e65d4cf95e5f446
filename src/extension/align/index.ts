// "Judge Studio: Align Judge with Labels…": from the calibration view (its file and metric) or the
// palette (the active template, a dataset): the shared `runAlign` with the resolved judge under a
// cancellable progress notification, its files in <template>.align/, then the align view.
// Align views are restored after a reload from the report on disk.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { AlignInputError, defaultOutDir, loadLabelled, runAlign, type AlignRun } from '../../core/align';
import { snapshotTemplate } from '../../core/compare';
import { checkDatasetFile, readDataset } from '../../core/dataset';
import { defaultCacheDir, DiskCache } from '../../core/judge/engine/cache';
import type { PreparedJudge } from '../../core/judge/engine/prepare';
import type { Panel } from '../../core/judge/panel/panel';
import { labelsFileFor, readLabels } from '../../core/labels';
import { latestPerRow } from '../../core/results';
import { alignStateSchema, type AlignState, type AlignView } from '../../protocol/align';
import { resolvePanel, panelAsJudge } from '../providers/panel';
import { readSettings, resolveJudge, type ResolvedJudge, type ResolveOutcome } from '../providers/resolve';
import { toUri } from '../run/commands';
import { settingsFor } from '../run/controller';
import { History } from '../run/history';
import { SampleChooser } from '../run/samples';
import { baseName, loadTemplate, templatesNamed } from '../run/template';
import type { Studio } from '../studio';
import { notDone } from '../notDone';
import { webviewOptions } from '../webview/page';
import { PanelSet } from '../webview/panels';
import { ALIGN_VIEW_TYPE, AlignPanel } from './panel';

export const ALIGN_COMMAND = 'judgeStudio.alignJudge';

/** Arguments for the calibration view, scripts and tests; menus pass the template's Uri instead. */
const argsSchema = z.object({ template: z.optional(z.string()), data: z.optional(z.string()), metric: z.optional(z.string()), labels: z.optional(z.string()) });

interface AlignSettings {
  seed: number;
  split: number;
  maxExamples: number;
  candidates: number;
  budget: number | undefined;
  authorModel: string | undefined;
}

function alignSettings(): AlignSettings {
  const c = vscode.workspace.getConfiguration('judgeStudio.align');
  const int = (key: string, fallback: number, min: number) => {
    const v = c.get<number>(key, fallback);
    return Number.isInteger(v) && v >= min ? v : fallback;
  };
  const split = c.get<number>('split', 0.5);
  const budget = int('budget', 0, 0);
  const author = c.get<string>('authorModel', '').trim();
  return { seed: int('seed', 1, 0), split: split > 0 && split < 1 ? split : 0.5, maxExamples: int('maxExamples', 4, 1), candidates: int('candidates', 3, 1), budget: budget > 0 ? budget : undefined, authorModel: author || undefined };
}

export function registerAlign(studio: Studio): void {
  const panels = new PanelSet<AlignPanel>();
  const history = new History(studio);
  const chooser = new SampleChooser(studio, studio.samples);
  const open = (panel: vscode.WebviewPanel, state: AlignState) => panels.add((forget) => new AlignPanel(panel, state, studio, history, forget));

  const alignCommand = async (arg: unknown): Promise<AlignView | undefined> => {
    const parsed = argsSchema.safeParse(arg);
    const args = parsed.success ? parsed.data : {};
    const template = arg instanceof vscode.Uri ? arg : args.template ? toUri(args.template) : await pickTemplate(args.metric, chooser);
    if (!template) return notDone(studio.log, 'Align Judge with Labels', 'no template was chosen');
    const doc = await vscode.workspace.openTextDocument(template);
    if (doc.isDirty) return fail(`${vscode.workspace.asRelativePath(template, false)} has unsaved changes; save it first, so the candidates say which version they were aligned from.`);
    const loaded = await loadTemplate(studio, template);
    if (!loaded.ok) return fail(loaded.message);
    const { judge } = loaded;
    if (args.metric && args.metric !== judge.metric) return fail(`${baseName(template)} judges "${judge.metric}", not "${args.metric}".`);
    const data = args.data ? toUri(args.data) : await chooser.datasetForBatch(template);
    if (!data) return notDone(studio.log, 'Align Judge with Labels', `no dataset was chosen for ${baseName(template)}`);
    const dataShown = vscode.workspace.asRelativePath(data, false);
    const check = data.scheme === 'file' ? await checkDatasetFile(data.fsPath) : { ok: false as const, message: 'not a file on disk; save it first' };
    if (!check.ok) return fail(`${dataShown}: ${check.message.split(data.fsPath).join(dataShown)}`);
    const labelsFile = args.labels ? toUri(args.labels).fsPath : labelsFileFor(data.fsPath);

    const who = await judgeFor(studio, judge);
    if (!who) return undefined;
    const { resolved, panel } = who;

    const labels = existsSync(labelsFile) ? (await readLabels(labelsFile)).lines : [];
    const rows = await loadLabelled(latestPerRow(() => readDataset(data.fsPath)), { metric: judge.metric, kind: judge.config.kind, keyFields: judge.keyFields, labels });
    const s = alignSettings();
    const outDir = defaultOutDir(template.fsPath);
    const root = vscode.workspace.getWorkspaceFolder(template)?.uri.fsPath ?? path.dirname(template.fsPath);
    const abort = new AbortController();
    let run: AlignRun | undefined;
    let fatal: string | undefined;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Judge Studio: aligning ${judge.metric} with ${baseName(data)}`, cancellable: true },
      async (progress, token) => {
        token.onCancellationRequested(() => abort.abort());
        const step = 100 / Math.max(1, rows.rows.length * (1 + s.candidates));
        try {
          run = await runAlign({
            judge,
            templateFile: template.fsPath,
            dataFile: data.fsPath,
            loaded: rows,
            client: resolved.client,
            settings: settingsFor(judge, panel ? panel.members[0]!.settings.model : resolved.model, resolved.settings.structured),
            ...(panel ? { panel } : {}),
            ...(s.authorModel ? { authorModel: s.authorModel } : {}),
            cache: new DiskCache(defaultCacheDir(process.env)),
            cacheScope: resolved.cacheScope,
            concurrency: resolved.settings.concurrency,
            outDir,
            share: s.split,
            seed: s.seed,
            maxExamples: s.maxExamples,
            candidates: s.candidates,
            ...(s.budget !== undefined ? { budget: s.budget } : {}),
            signal: abort.signal,
            log: (m) => studio.log.warn(`align ${judge.metric}: ${m}`),
            shown: (f) => vscode.workspace.asRelativePath(vscode.Uri.file(f), false),
            onProgress: (p) => {
              const what = p.id === 'author' ? 'drafting candidates' : `${p.id === 'baseline' ? 'current template' : p.id} on ${p.part === 'train' ? 'train' : 'held-out'} rows`;
              progress.report({ increment: p.done > 0 ? step : 0, message: p.id === 'author' ? what : `${what}: ${p.done}/${p.total}` });
            },
          });
        } catch (e) {
          fatal = e instanceof AlignInputError ? `${dataShown}: ${e.message}` : (e as Error).message;
        }
      },
    );
    if (fatal !== undefined) return fail(`align could not run: ${fatal}`);
    if (!run) return undefined;
    // The compare view's "Show Template Diff" opens the exact text each results file was judged with.
    for (const text of [judge.template.text, ...run.judged.values()]) await snapshotTemplate(root, text).catch((e: unknown) => studio.log.warn(`align: could not keep a template snapshot: ${(e as Error).message}`));

    const state: AlignState = { dir: run.outDir, template: template.fsPath, data: data.fsPath, labels: labelsFile };
    const existing = panels.get(vscode.Uri.file(run.outDir).toString());
    existing?.dispose();
    const webview = vscode.window.createWebviewPanel(ALIGN_VIEW_TYPE, `Align: ${judge.metric}`, vscode.ViewColumn.Active, webviewOptions(studio.context.extensionUri));
    const view = await open(webview, state).show();
    announce(run);
    return view;
  };

  studio.push(
    panels,
    history,
    chooser,
    vscode.commands.registerCommand(ALIGN_COMMAND, alignCommand),
    vscode.window.registerWebviewPanelSerializer(ALIGN_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => {
        const parsed = alignStateSchema.safeParse(state);
        if (!parsed.success || panels.get(vscode.Uri.file(parsed.data.dir).toString()) || !insideWorkspace(parsed.data)) {
          panel.dispose();
          return;
        }
        await open(panel, parsed.data)
          .show()
          .catch((e: unknown) => studio.log.warn('the align view could not be restored', e));
      },
    }),
  );
}

function announce(run: AlignRun): void {
  const r = run.report;
  if (r.best) void vscode.window.showInformationMessage(`Judge Studio: ${r.best} beats the current template on the held-out rows; see the align view.`);
  else void vscode.window.showWarningMessage(`Judge Studio: no candidate beats the current template on the held-out rows${r.interrupted ? ' (the run was stopped)' : ''}.`);
}

/** The template's panel when it names one, else the configured judge; undefined (and said) when there is none. */
async function judgeFor(studio: Studio, judge: PreparedJudge): Promise<{ resolved: ResolvedJudge; panel: Panel | undefined } | undefined> {
  const panel = judge.config.model.judges ? await resolvePanel(studio, judge.config, settingsFor(judge, '', readSettings().structured)) : undefined;
  if (panel && !panel.ok) return fail(panel.message);
  const resolved: ResolveOutcome = panel?.ok ? panelAsJudge(panel, readSettings().structured) : await resolveJudge(studio, { template: judge.config, interactive: true });
  if (!resolved.ok) return undefined;
  return { resolved: resolved.judge, panel: panel?.ok ? panel.panel : undefined };
}

function fail(message: string): undefined {
  void vscode.window.showErrorMessage(`Judge Studio: ${message}`);
  return undefined;
}

/** A restored view acts on its paths (Accept writes the template): all of them must be in the workspace. */
function insideWorkspace(s: AlignState): boolean {
  return [s.dir, s.template, s.data, s.labels].every((p) => vscode.workspace.getWorkspaceFolder(vscode.Uri.file(p)) !== undefined) && s.template.endsWith('.judge');
}

/** The template named after the metric (candidates in *.align/ folders are not templates to align), else a pick. */
async function pickTemplate(metric: string | undefined, chooser: SampleChooser): Promise<vscode.Uri | undefined> {
  const active = vscode.window.activeTextEditor?.document;
  if (active?.languageId === 'judge' && !metric) return active.uri;
  if (!metric) return chooser.template();
  const found = (await templatesNamed(metric)).filter((u) => !/\.align\/[^/]+\.judge$/.test(u.path));
  if (found.length === 1) return found[0];
  if (found.length === 0) return fail(`no template in the workspace is named "${metric}"; open the template and run Align Judge with Labels from it.`);
  const picked = await vscode.window.showQuickPick(
    found.map((u) => ({ label: vscode.workspace.asRelativePath(u, false), u })),
    { title: `Align Judge with Labels: several templates are named "${metric}"; which one judged this file?` },
  );
  return picked?.u;
}
