// Single runs and what the run view shows: judge one sample (live status, cancel, re-run), reopen
// a history entry, or show a recorded results row without calling the judge.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { formatOf, isSkip, parseDataset, type DatasetRecord } from '../../core/dataset';
import type { PreparedJudge } from '../../core/judge/engine/prepare';
import { judgeSettings } from '../../core/judge/engine/settings';
import { pairFields, pairStyle } from '../../core/template';
import { verdictColumnsText } from '../../core/results/verdict';
import type { RetryPolicy } from '../../core/judge/transport/retry';
import { runJudge } from '../../core/judge/run/runner';
import type { RenderedOrder, RunView } from '../../protocol/run';
import { panelAsJudge, resolvePanel } from '../providers/panel';
import { readSettings, resolveJudge } from '../providers/resolve';
import type { Studio } from '../studio';
import type { History } from './history';
import { batchForLine, entryId, type BatchEntry, type RunEntry } from './model/history';
import { consistencyText, inputRecord, metricOf, resultView, verdictText, type Line } from './model/result';
import { PassTracker } from './model/status';
import { TracingClient } from './model/tracing';
import { entryView, finishedPasses, renderOrders, runView } from './model/view';
import { RunPanel } from './panel';
import { baseName, loadTemplate, scaleOf, templatesNamed } from './template';

/** One sample to judge; `row` is its dataset row number when it came from a dataset. */
export interface RunRequest {
  template: vscode.Uri;
  record: DatasetRecord;
  row?: number;
  source: string;
  note: string | null;
  /** How the template was chosen when the sample is outside its editor (shown in the run view's header). */
  how?: string | null;
}

/** A person is waiting on one run: retry briefly instead of the batch runner's long backoff. */
const SINGLE_RUN_RETRY: RetryPolicy = { retries: 2, baseDelayMs: 500, maxDelayMs: 4_000 };

interface Session {
  id: string;
  request: RunRequest | undefined;
  abort: AbortController | undefined;
  line: Line | undefined;
}

export class RunController implements vscode.Disposable {
  private panel: RunPanel | undefined;
  private session: Session | undefined;

  constructor(
    private readonly studio: Studio,
    private readonly history: History,
  ) {}

  /** The view on screen, for tests and the serializer. */
  get view(): RunView | undefined {
    return this.panel?.view;
  }

  /** Adopts a panel restored after a reload (or creates one) and shows `view` in it. */
  show(view: RunView, restored?: vscode.WebviewPanel): void {
    if (restored && this.panel) restored.dispose();
    else if (restored) this.panel = new RunPanel(restored, this.studio, this.handlers(), () => (this.panel = undefined));
    this.panel ??= RunPanel.create(this.studio, this.handlers(), () => (this.panel = undefined));
    this.panel.show(view);
    this.panel.reveal();
  }

  private handlers() {
    return {
      rerun: async () => {
        if (this.session?.request) await this.run(this.session.request);
      },
      cancel: () => this.session?.abort?.abort(),
      copy: async () => {
        const view = this.panel?.view;
        const value = this.session?.line ?? view?.result;
        if (!value) return false;
        await vscode.env.clipboard.writeText(JSON.stringify(value, null, 2));
        return true;
      },
    };
  }

  /** Judges one sample and records it in the history; resolves with the final view. */
  async run(request: RunRequest): Promise<RunView | undefined> {
    this.session?.abort?.abort();
    const started = new Date();
    const session: Session = { id: entryId(started, randomBytes(3).toString('hex')), request, abort: new AbortController(), line: undefined };
    this.session = session;
    const root = this.history.rootFor(request.template);
    const templateFile = this.history.relative(root, request.template);
    const loaded = await loadTemplate(this.studio, request.template);
    const base = {
      id: session.id,
      source: request.source,
      note: request.note,
      time: started.toISOString(),
      raw: [],
      canRerun: true,
    };
    if (!loaded.ok) {
      const title = `The template ${baseName(request.template)} cannot run`;
      return this.finish(session, runView({ ...base, template: { file: templateFile, metric: baseName(request.template), kind: null, how: request.how ?? null }, model: null, phase: 'failed', elapsedMs: null, passes: [], messages: [], scale: null, failure: { title, message: loaded.message } }));
    }
    const { judge } = loaded;
    const template = templateView(templateFile, judge, request.how);
    const scale = scaleOf(judge);
    const rendered = renderOrders(judge, request.record, request.row);
    if (!rendered.ok) {
      const title = `The sample could not be rendered with the template ${loaded.file}`;
      return this.finish(session, runView({ ...base, template, model: null, phase: 'failed', elapsedMs: null, passes: [], messages: [], scale, failure: { title, message: rendered.error } }));
    }
    const pairwise = judge.config.kind === 'pairwise';
    const tracker = new PassTracker(rendered.prompts, pairwise);
    let model: string | null = null;
    const draw = (phase: RunView['phase'], extra: { line?: Line; failure?: { title: string; message: string } } = {}) =>
      runView({ ...base, template, model, phase, elapsedMs: phase === 'running' ? null : Date.now() - started.getTime(), passes: tracker.passes, messages: rendered.orders, scale, labels: judge.config.labels ?? null, raw: [...tracker.raw], repaired: tracker.repaired, ...extra });
    this.show(draw('running'));

    const signal = session.abort!.signal;
    // A template with `model.judges` runs its whole panel (see providers/panel.ts).
    const panel = judge.config.model.judges ? await resolvePanel(this.studio, judge.config, settingsFor(judge, '', readSettings().structured)) : undefined;
    if (panel && !panel.ok) {
      tracker.settle(true);
      return this.finish(session, draw('failed', { failure: { title: 'The panel of judges cannot run', message: panel.message } }));
    }
    const resolved = panel?.ok ? panelAsJudge(panel, readSettings().structured) : await resolveJudge(this.studio, { template: judge.config, interactive: true, signal });
    if (session !== this.session) return undefined;
    if (!resolved.ok) {
      tracker.settle(true);
      if (resolved.reason === 'cancelled') return this.finish(session, draw('cancelled'));
      const title = resolved.reason === 'untrusted' ? 'No judge runs in Restricted Mode' : `No judge is available to run ${loaded.file}`;
      return this.finish(session, draw('failed', { failure: { title, message: resolved.message } }));
    }
    model = resolved.judge.model;
    const update = () => {
      if (session === this.session && !signal.aborted) this.panel?.show(draw('running'));
    };
    let line: Line | undefined;
    try {
      const outcome = await runJudge({
        judge,
        client: new TracingClient(resolved.judge.client, tracker, update),
        settings: settingsFor(judge, resolved.judge.model, resolved.judge.settings.structured),
        items: single(request),
        write: (l) => (line = l),
        concurrency: resolved.judge.settings.concurrency,
        retry: SINGLE_RUN_RETRY,
        signal,
        log: (m) => this.studio.log.warn(`run ${judge.metric}: ${m}`),
        ...(panel?.ok ? { panel: { ...panel.panel, members: panel.panel.members.map((m) => ({ ...m, client: new TracingClient(m.client, tracker, update) })) } } : {}),
      });
      if (outcome.interrupted || !line) {
        tracker.settle(true);
        return this.finish(session, draw('cancelled'));
      }
    } catch (e) {
      tracker.settle(true);
      this.studio.log.error(`run ${judge.metric} failed`, e);
      return this.finish(session, draw('failed', { failure: { title: `The judge run of ${loaded.file} failed`, message: (e as Error).message } }));
    }
    session.line = line;
    const failed = typeof line[`${judge.metric}/error`] === 'string';
    tracker.settle(failed, finishedOrders(line, judge.metric));
    const modelName = typeof line[`${judge.metric}/model`] === 'string' ? (line[`${judge.metric}/model`] as string) : resolved.judge.model;
    model = modelName;
    const view = draw(failed ? 'failed' : 'done', { line });
    await this.record(root, { template: templateFile, judge, request, line, view, model: modelName });
    return this.finish(session, view);
  }

  private finish(session: Session, view: RunView): RunView {
    if (session === this.session) {
      session.abort = undefined;
      this.show(view);
    }
    return view;
  }

  private async record(root: vscode.Uri, r: { template: string; judge: PreparedJudge; request: RunRequest; line: Line; view: RunView; model: string }): Promise<void> {
    const entry: RunEntry = {
      v: 1,
      type: 'run',
      id: r.view.id,
      time: r.view.time,
      template: r.template,
      metric: r.judge.metric,
      kind: r.judge.config.kind,
      model: r.model,
      source: r.request.source,
      note: r.request.note,
      record: r.request.record,
      line: r.line,
      raw: r.view.raw,
      verdict: verdictText(r.view.result),
      consistency: consistencyText(r.view.result),
      elapsedMs: r.view.elapsedMs,
    };
    try {
      await this.history.append(root, entry);
    } catch (e) {
      this.studio.log.error('could not append to the run history', e);
      void vscode.window.showWarningMessage(`Judge Studio: the run finished but could not be added to the history: ${(e as Error).message}`);
    }
  }

  /** Reopens a single run from the history, with its messages rendered again from the record. */
  async showEntry(entry: RunEntry, root: vscode.Uri, restored?: vscode.WebviewPanel): Promise<RunView> {
    this.session?.abort?.abort();
    const uri = this.history.resolve(root, entry.template);
    const loaded = await loadTemplate(this.studio, uri);
    let messages: RenderedOrder[] = [];
    let scale: { min: number; max: number } | null = null;
    let swap = true;
    let pair: string[] | null = null;
    if (loaded.ok) {
      pair = pairOf(loaded.judge);
      const rendered = renderOrders(loaded.judge, entry.record, rowOf(entry.line));
      if (rendered.ok) messages = rendered.orders;
      scale = scaleOf(loaded.judge);
      swap = loaded.judge.strategy.orders.length > 1;
    }
    const request: RunRequest = { template: uri, record: entry.record, source: entry.source, note: entry.note, ...(rowOf(entry.line) !== undefined ? { row: rowOf(entry.line)! } : {}) };
    this.session = { id: entry.id, request: loaded.ok ? request : undefined, abort: undefined, line: entry.line };
    const view = entryView(entry, messages, scale, loaded.ok, swap, pair);
    this.show(view, restored);
    return view;
  }

  /** Shows row `row` (its `_row`, else its 1-based position) of a results file; never calls the judge. */
  async showRow(file: vscode.Uri, row: number, metricHint?: string, restored?: vscode.WebviewPanel): Promise<RunView> {
    this.session?.abort?.abort();
    const name = baseName(file);
    const text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(file));
    const items = parseDataset(text, formatOf(file.fsPath));
    const rows = items.flatMap((i) => (isSkip(i) ? [] : [i]));
    // Where a `_row` has several lines (a resume appended a retried row), the last one stands.
    const item = [...rows].reverse().find((i) => i.record._row === row) ?? rows.find((i) => i.row === row);
    if (!item) throw new Error(`${name} has no row ${row} (${rows.length} readable rows).`);
    const line = item.record;
    const metric = metricHint ?? metricOf(line);
    if (!metric) throw new Error(`${name}, row ${row} has no judge columns (such as ${verdictColumnsText()}).`);
    const record = inputRecord(line, metric);
    const [templateUri] = await templatesNamed(metric);
    const loaded = templateUri ? await loadTemplate(this.studio, templateUri) : undefined;
    const judge = loaded?.ok ? loaded.judge : undefined;
    const rendered = judge ? renderOrders(judge, record, item.row) : undefined;
    const preview = judge ? null : resultView(line, metric);
    const kind = judge?.config.kind ?? (preview?.kind === 'pointwise' || preview?.kind === 'categorical' ? 'pointwise' : preview && preview.kind !== 'error' ? 'pairwise' : null);
    const failed = typeof line[`${metric}/error`] === 'string';
    const source = `${name}, row ${row}`;
    const id = `row:${row}@${file.toString()}`;
    const model = line[`${metric}/model`];
    const judged = await this.judgedTime(file, line, item.row, metric);
    const view = runView({
      id,
      template: { file: templateUri ? this.history.relative(this.history.rootFor(templateUri), templateUri) : null, metric, kind, how: null, pair: judge ? pairOf(judge) : null },
      source,
      note: templateUri ? null : `no template named "${metric}" in the workspace, so the messages are not shown and the row cannot be re-run`,
      model: typeof model === 'string' ? model : null,
      time: judged.time,
      timeLabel: judged.label,
      phase: 'recorded',
      elapsedMs: null,
      passes: kind ? finishedPasses(kind, judge ? judge.strategy.orders.length > 1 : true, failed) : [],
      messages: rendered?.ok ? rendered.orders : [],
      line,
      scale: judge ? scaleOf(judge) : null,
      labels: judge?.config.labels ?? null,
      raw: [],
      canRerun: Boolean(judge),
    });
    const request = templateUri && judge ? { template: templateUri, record, row: item.row, source, note: null } : undefined;
    this.session = { id, request, abort: undefined, line };
    this.show(view, restored);
    return view;
  }

  /**
   * When a results row was judged: its own `m/time` column when the engine wrote one, else the
   * start of the batch that wrote the file (from the history), else when the file was last written.
   */
  private async judgedTime(file: vscode.Uri, line: Line, lineNo: number, metric: string): Promise<{ time: string; label: string }> {
    const own = line[`${metric}/time`];
    if (typeof own === 'string' && !Number.isNaN(Date.parse(own))) return { time: own, label: 'judged' };
    try {
      for (const h of await this.history.files()) {
        const batches = h.entries.filter((e): e is BatchEntry => e.type === 'batch' && this.history.resolve(h.root, e.results).toString() === file.toString());
        // A row a resume kept shows the start of the batch that judged it, not the resume's.
        const batch = batchForLine(batches, lineNo);
        if (batch) return { time: batch.time, label: 'judged in the batch started' };
      }
    } catch (e) {
      this.studio.log.warn('run history could not be read', e);
    }
    try {
      const stat = await vscode.workspace.fs.stat(file);
      return { time: new Date(stat.mtime).toISOString(), label: 'results file last written' };
    } catch {
      return { time: new Date().toISOString(), label: 'shown' };
    }
  }

  dispose(): void {
    this.session?.abort?.abort();
    this.panel?.dispose();
  }
}

function templateView(file: string, judge: PreparedJudge, how: string | null | undefined): RunView['template'] {
  return { file, metric: judge.metric, kind: judge.config.kind, how: how ?? null, pair: pairOf(judge) };
}

/** A pairwise template's slot fields (A, B); null for pointwise. */
function pairOf(judge: PreparedJudge): string[] | null {
  return judge.config.kind === 'pairwise' ? pairFields(pairStyle(judge.template)) : null;
}

/** Pass orders a failed line still kept as valid passes (`m/passes`). */
function finishedOrders(line: Line, metric: string): ('AB' | 'BA')[] {
  const passes = line[`${metric}/passes`];
  if (!Array.isArray(passes)) return [];
  return passes.flatMap((p) => (p && typeof p === 'object' && ((p as { order?: unknown }).order === 'AB' || (p as { order?: unknown }).order === 'BA') ? [(p as { order: 'AB' | 'BA' }).order] : []));
}

function rowOf(line: Line): number | undefined {
  return typeof line._row === 'number' ? line._row : undefined;
}

async function* single(request: RunRequest) {
  yield { row: request.row ?? 1, line: request.row ?? 1, record: request.record };
}

export function settingsFor(judge: PreparedJudge, model: string, structured: 'json_schema' | 'json_object' | 'none') {
  return judgeSettings(judge.config, model, structured);
}
