// "Judge Studio: Probe Judge": the template (the active one or a pick), a dataset (the preview's
// first), the probes (all by default) and the threshold setting; then the shared `runProbes`
// with the resolved judge under a cancellable progress notification, its files under
// .judge-studio/probes/<metric>-<time>/, and the probe view. Probe views are restored after a reload.
// Loaded on first use, with the probe code and the openai SDK (index.ts registers the entry points).
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { checkDatasetFile, readDataset } from '../../core/dataset';
import { defaultCacheDir, DiskCache } from '../../core/judge/engine/cache';
import { RunStats } from '../../core/judge/run/stats';
import { DEFAULT_THRESHOLD, defaultProbes, isProbeId, PROBES, runProbes, type ProbeId, type ProbeRun } from '../../core/probe';
import { probeStateSchema, type ProbeView } from '../../protocol/probe';
import { resolveJudge } from '../providers/resolve';
import { toUri } from '../run/commands';
import { settingsFor } from '../run/controller';
import { SampleChooser } from '../run/samples';
import { baseName, loadTemplate } from '../run/template';
import type { Studio } from '../studio';
import { notDone } from '../notDone';
import { webviewOptions } from '../webview/page';
import { PanelSet } from '../webview/panels';
import { probeDirName } from './model';
import { PROBE_VIEW_TYPE, ProbePanel } from './panel';


export const PROBES_DIR = '.judge-studio/probes';

/** Arguments for scripts and tests; menus pass the template's Uri instead. */
const argsSchema = z.object({
  template: z.optional(z.string()),
  dataset: z.optional(z.string()),
  probes: z.optional(z.array(z.string())),
  threshold: z.optional(z.number()),
});
type Args = z.infer<typeof argsSchema>;

export interface ProbeFeature {
  probe(arg: unknown): Promise<ProbeView | undefined>;
  restore(panel: vscode.WebviewPanel, state: unknown): Promise<void>;
}

export function probeFeature(studio: Studio): ProbeFeature {
  const panels = new PanelSet<ProbePanel>();
  const chooser = new SampleChooser(studio, studio.samples);
  const open = (panel: vscode.WebviewPanel, dir: vscode.Uri) => panels.add((forget) => new ProbePanel(panel, dir, studio, forget));

  const probeCommand = async (arg: unknown): Promise<ProbeView | undefined> => {
    const parsed = argsSchema.safeParse(arg);
    const args: Args = parsed.success ? parsed.data : {};
    const template = arg instanceof vscode.Uri ? arg : args.template ? toUri(args.template) : await chooser.template();
    if (!template) return notDone(studio.log, 'Probe Judge', 'no template was chosen');
    const loaded = await loadTemplate(studio, template);
    if (!loaded.ok) {
      void vscode.window.showErrorMessage(`Judge Studio: ${loaded.message}`);
      return undefined;
    }
    const { judge } = loaded;
    const kind = judge.config.kind;
    const dataset = args.dataset ? toUri(args.dataset) : await chooser.datasetForBatch(template);
    if (!dataset) return notDone(studio.log, 'Probe Judge', `no dataset was chosen for ${baseName(template)}`);
    const datasetShown = vscode.workspace.asRelativePath(dataset, false);
    const check = dataset.scheme === 'file' ? await checkDatasetFile(dataset.fsPath) : { ok: false as const, message: 'not a file on disk; save it first' };
    if (!check.ok) {
      void vscode.window.showErrorMessage(`Judge Studio: ${datasetShown}: ${check.message.split(dataset.fsPath).join(datasetShown)}`);
      return undefined;
    }
    const probes = args.probes ? checkProbes(args.probes, kind) : await pickProbes(judge.metric, kind);
    if (!probes) return notDone(studio.log, 'Probe Judge', 'no probe was chosen');
    const threshold = args.threshold ?? thresholdSetting();

    const resolved = await resolveJudge(studio, { template: judge.config, interactive: true });
    if (!resolved.ok) return undefined;
    const root = vscode.workspace.getWorkspaceFolder(template)?.uri ?? vscode.workspace.workspaceFolders?.[0]?.uri ?? studio.context.storageUri ?? studio.context.globalStorageUri;
    const dir = vscode.Uri.joinPath(root, ...PROBES_DIR.split('/'), probeDirName(judge.metric, new Date()));

    const abort = new AbortController();
    const stats = new RunStats();
    let run: ProbeRun | undefined;
    let fatal: string | undefined;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Judge Studio: probing ${judge.metric} on ${baseName(dataset)}`, cancellable: true },
      async (progress, token) => {
        token.onCancellationRequested(() => abort.abort());
        try {
          run = await runProbes({
            judge,
            client: resolved.judge.client,
            settings: settingsFor(judge, resolved.judge.model, resolved.judge.settings.structured),
            items: readDataset(dataset.fsPath, { signal: abort.signal }),
            outDir: dir.fsPath,
            probes,
            threshold,
            concurrency: resolved.judge.settings.concurrency,
            cache: new DiskCache(defaultCacheDir(process.env)),
            cacheScope: resolved.judge.cacheScope,
            stats,
            signal: abort.signal,
            log: (m) => studio.log.warn(`probe ${judge.metric}: ${m}`),
            onProgress: (done, total) => {
              const failed = stats.failed ? ` · ${stats.failed} failed` : '';
              progress.report({ increment: done === 0 || total === 0 ? 0 : 100 / total, message: `${done}/${total} copies judged (${probes.length} probe(s) and the originals)${failed}` });
            },
          });
        } catch (e) {
          if (!abort.signal.aborted) fatal = (e as Error).message;
        }
      },
    );
    if (fatal !== undefined) {
      studio.log.error(`probe ${judge.metric} failed: ${fatal}`);
      void vscode.window.showErrorMessage(`Judge Studio: the probe run could not finish: ${fatal}`);
      return undefined;
    }
    if (!run) {
      void vscode.window.showWarningMessage('Judge Studio: the probe run was cancelled before anything was judged.');
      return undefined;
    }
    if (run.skipped > 0) studio.log.warn(`probe ${judge.metric}: ${run.skipped} unreadable record(s) of ${datasetShown} skipped`);

    const panel = vscode.window.createWebviewPanel(PROBE_VIEW_TYPE, `Probes: ${judge.metric}`, vscode.ViewColumn.Active, webviewOptions(studio.context.extensionUri));
    const view = await open(panel, dir).show(datasetShown, run.interrupted);
    const r = run.report;
    const failed = stats.failed ? ` ${stats.failed} judge call(s) failed and are left out (see the log).` : '';
    const verdict =
      r.susceptible.length === 0
        ? `${r.metric} is not susceptible to any probe (none changed more than ${r.threshold} of the verdicts).`
        : `${r.metric} is susceptible to: ${r.susceptible.join(', ')} (changed more than ${r.threshold} of the verdicts).`;
    if (r.susceptible.length || stats.failed) void vscode.window.showWarningMessage(`Judge Studio: ${verdict}${failed}`);
    else void vscode.window.showInformationMessage(`Judge Studio: ${verdict}`);
    return view;
  };

  studio.push(panels, chooser);
  return {
    probe: probeCommand,
    // Unlike PanelSet's serializer, this one resolves only once the page has its HTML: VS Code
    // holds a revived webview until then (drawn any earlier, its scripts sometimes failed to load).
    restore: async (panel, state) => {
      const parsed = probeStateSchema.safeParse(state);
      const dir = parsed.success ? vscode.Uri.file(parsed.data.dir) : undefined;
      if (!parsed.success || !dir || panels.get(dir.toString())) {
        panel.dispose();
        if (dir) panels.get(dir.toString())?.panel.reveal(undefined, true);
        return;
      }
      await open(panel, dir)
        .show(parsed.data.dataset)
        .catch((e: unknown) => studio.log.warn('the probe view could not be restored', e));
    },
  };
}

/** `judgeStudio.probe.threshold`, kept to a share between 0 and 1. */
function thresholdSetting(): number {
  const value = vscode.workspace.getConfiguration('judgeStudio').get<number>('probe.threshold', DEFAULT_THRESHOLD);
  return typeof value === 'number' && value >= 0 && value <= 1 ? value : DEFAULT_THRESHOLD;
}

function checkProbes(ids: readonly string[], kind: 'pointwise' | 'pairwise'): ProbeId[] {
  const out: ProbeId[] = [];
  for (const id of ids) {
    if (!isProbeId(id)) throw new Error(`unknown probe "${id}"; the probes are ${defaultProbes('pairwise').join(', ')}`);
    if (PROBES[id].pairwiseOnly && kind !== 'pairwise') throw new Error(`the "${id}" probe applies to pairwise templates only`);
    if (!out.includes(id)) out.push(id);
  }
  if (out.length === 0) throw new Error('name at least one probe');
  return out;
}

/** Every probe that applies to the template's kind, all ticked; undefined when cancelled or none is left ticked. */
async function pickProbes(metric: string, kind: 'pointwise' | 'pairwise'): Promise<ProbeId[] | undefined> {
  const items = defaultProbes(kind).map((id) => ({ label: id, description: PROBES[id].description, picked: true, id }));
  const picked = await vscode.window.showQuickPick(items, {
    title: `Probe ${metric}: which probes?`,
    placeHolder: 'Each probe adds a fixed text to the judged response; untick the ones to leave out',
    canPickMany: true,
    matchOnDescription: true,
  });
  if (!picked || picked.length === 0) return undefined;
  return picked.map((p) => p.id);
}
