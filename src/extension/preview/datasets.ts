// The dataset row chosen for a template's preview: resolving it (the remembered choice, else a
// sibling dataset and row 1), reading the file (cached), and the pickers that change it.
import * as vscode from 'vscode';
import { DatasetError, formatOf, isSkip, parseDataset, type DatasetFormat, type DatasetItem } from '../../core/dataset';
import type { SampleView } from '../language/model/edits';
import type { Studio } from '../studio';
import type { SampleOutcome } from './model';
import { datasetColumns, rowCount, rowSummary, selectRow, siblingDatasetNames } from './rows';
import type { SampleInfo } from '../../protocol/preview';

export interface Sample {
  info: SampleInfo;
  outcome: SampleOutcome;
  dataset: vscode.Uri | undefined;
  items: DatasetItem[];
}

const DATASET_GLOB = '**/*.{jsonl,ndjson,json,csv}';
/** JSON files in a workspace that are configuration, not data. */
const NOT_DATA = /(^|\/)(package(-lock)?|tsconfig[\w.-]*|jsconfig|settings|launch|tasks|extensions|\.eslintrc)\.json$/;

export class Samples implements vscode.Disposable {
  private readonly cache = new Map<string, { stamp: string; items: DatasetItem[] }>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  /** Fires with a dataset's URI when its file or open document changes. */
  readonly onDidChangeDataset = this.changed.event;

  /** One per extension (on the Studio): every feature shares its cache and its one file watcher. */
  constructor(private readonly studio: Studio) {
    const watcher = vscode.workspace.createFileSystemWatcher(DATASET_GLOB);
    const fire = (uri: vscode.Uri) => {
      this.cache.delete(uri.toString());
      this.changed.fire(uri);
    };
    this.disposables.push(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length && this.cache.has(e.document.uri.toString())) this.changed.fire(e.document.uri);
      }),
      watcher,
      watcher.onDidChange(fire),
      watcher.onDidCreate(fire),
      watcher.onDidDelete(fire),
    );
  }

  /** The remembered dataset and row, else the first sibling dataset (`x.judge` -> `x.jsonl`, …) and row 1. */
  async choice(template: vscode.Uri): Promise<{ dataset: vscode.Uri; row: number } | undefined> {
    const saved = this.studio.selection(template);
    if (saved) return { dataset: toUri(saved.dataset), row: saved.row };
    // An unsaved (untitled) template has no folder to look in.
    if (!template.path.startsWith('/')) return undefined;
    const dir = vscode.Uri.joinPath(template, '..');
    const base = template.path.slice(template.path.lastIndexOf('/') + 1);
    for (const name of siblingDatasetNames(base)) {
      const uri = vscode.Uri.joinPath(dir, name);
      if (await exists(uri)) return { dataset: uri, row: 1 };
    }
    return undefined;
  }

  /** Items of a dataset, re-read only when the file (or its open, unsaved document) changes. */
  async items(dataset: vscode.Uri): Promise<DatasetItem[]> {
    const key = dataset.toString();
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    const stamp = open ? `doc:${open.version}` : await fileStamp(dataset);
    const hit = this.cache.get(key);
    if (hit && hit.stamp === stamp) return hit.items;
    const format = datasetFormat(dataset);
    const text = open ? open.getText() : new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(dataset));
    const items = parseDataset(text, format);
    this.cache.set(key, { stamp, items });
    return items;
  }

  async sample(template: vscode.Uri): Promise<Sample> {
    const choice = await this.choice(template);
    if (!choice) {
      const base = template.path.slice(template.path.lastIndexOf('/') + 1);
      const beside = template.path.startsWith('/') ? `, and none beside the template (${siblingDatasetNames(base).join(', ')})` : '';
      const message = `No dataset chosen${beside}; use "Choose dataset…" to pick one.`;
      return { info: { dataset: null, row: 1, rows: 0 }, outcome: { ok: false, code: 'no-dataset', message }, dataset: undefined, items: [] };
    }
    const label = vscode.workspace.asRelativePath(choice.dataset);
    try {
      const items = await this.items(choice.dataset);
      return { info: { dataset: label, row: choice.row, rows: rowCount(items) }, outcome: selectRow(items, choice.row, label), dataset: choice.dataset, items };
    } catch (e) {
      const message = e instanceof DatasetError ? `${label}: ${e.message}` : `cannot read ${label}: ${(e as Error).message}`;
      return { info: { dataset: label, row: choice.row, rows: 0 }, outcome: { ok: false, code: 'dataset-unreadable', message }, dataset: choice.dataset, items: [] };
    }
  }

  /** What completion and hover show about the chosen row; never throws. */
  async view(template: vscode.Uri): Promise<SampleView> {
    try {
      const s = await this.sample(template);
      return {
        columns: datasetColumns(s.items),
        ...(s.outcome.ok && { record: s.outcome.record, row: s.info.row }),
        ...(s.info.dataset && { dataset: s.info.dataset }),
      };
    } catch (e) {
      this.studio.log.warn(`reading the sample for ${template.toString()} failed`, e);
      return { columns: [] };
    }
  }

  async pickDataset(template: vscode.Uri): Promise<boolean> {
    const dir = vscode.Uri.joinPath(template, '..').toString();
    const files = (await vscode.workspace.findFiles(DATASET_GLOB, '**/node_modules/**', 500)).filter((u) => !NOT_DATA.test(u.path));
    const current = (await this.choice(template))?.dataset.toString();
    files.sort((a, b) => rankFile(a, dir) - rankFile(b, dir) || a.path.localeCompare(b.path));
    type Item = vscode.QuickPickItem & { uri?: vscode.Uri };
    const items: Item[] = files.map((uri) => ({
      label: uri.path.slice(uri.path.lastIndexOf('/') + 1),
      description: vscode.workspace.asRelativePath(vscode.Uri.joinPath(uri, '..')),
      ...(uri.toString() === current && { detail: 'current' }),
      uri,
    }));
    items.push({ label: '$(folder-opened) Browse…', alwaysShow: true });
    const picked = await vscode.window.showQuickPick(items, { title: 'Dataset for the preview', placeHolder: 'JSONL, JSON array or CSV with a header', matchOnDescription: true });
    if (!picked) return false;
    let uri = picked.uri;
    if (!uri) {
      const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, defaultUri: vscode.Uri.joinPath(template, '..'), filters: { Datasets: ['jsonl', 'ndjson', 'json', 'csv'] }, openLabel: 'Use for preview' });
      uri = chosen?.[0];
      if (!uri) return false;
    }
    await this.studio.setSelection(template, { dataset: uri.toString(), row: 1 });
    return true;
  }

  async pickRow(template: vscode.Uri): Promise<boolean> {
    const sample = await this.sample(template);
    if (!sample.dataset) return this.pickDataset(template);
    if (!sample.items.length) {
      void vscode.window.showWarningMessage(sample.outcome.ok ? `${sample.info.dataset} has no rows.` : sample.outcome.message);
      return false;
    }
    const row = await chooseRow(sample, `Row of ${sample.info.dataset} for the preview`);
    if (row === undefined) return false;
    await this.studio.setSelection(template, { dataset: sample.dataset.toString(), row });
    return true;
  }

  async stepRow(template: vscode.Uri, delta: number): Promise<void> {
    const sample = await this.sample(template);
    if (!sample.dataset || !sample.info.rows) return;
    const row = Math.min(sample.info.rows, Math.max(1, sample.info.row + delta));
    if (row !== sample.info.row) await this.studio.setSelection(template, { dataset: sample.dataset.toString(), row });
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** A quick pick of the sample's rows, its current row active; the row chosen, or undefined. */
export async function chooseRow(sample: Sample, title: string): Promise<number | undefined> {
  type Item = vscode.QuickPickItem & { row: number };
  const items: Item[] = sample.items.map((item) => ({
    label: `Row ${item.row}`,
    description: isSkip(item) ? '$(warning) unreadable' : rowSummary(item.record),
    ...(isSkip(item) && { detail: item.error }),
    row: item.row,
  }));
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = title;
  qp.items = items;
  qp.matchOnDescription = true;
  qp.activeItems = items.filter((i) => i.row === sample.info.row);
  const row = await new Promise<number | undefined>((resolve) => {
    qp.onDidAccept(() => resolve(qp.selectedItems[0]?.row));
    qp.onDidHide(() => resolve(undefined));
    qp.show();
  });
  qp.dispose();
  return row;
}

/** A stored dataset: a URI string (as written by the pickers) or a plain file path. */
function toUri(stored: string): vscode.Uri {
  return /^[a-z][a-z0-9+.-]+:/i.test(stored) && !/^[a-z]:[\\/]/i.test(stored) ? vscode.Uri.parse(stored) : vscode.Uri.file(stored);
}

function datasetFormat(uri: vscode.Uri): DatasetFormat {
  try {
    return formatOf(uri.path);
  } catch {
    throw new DatasetError('not a dataset file; choose a .jsonl, .json (array of objects) or .csv (with a header) file');
  }
}

export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

async function fileStamp(uri: vscode.Uri): Promise<string> {
  const s = await vscode.workspace.fs.stat(uri);
  return `file:${s.mtime}:${s.size}`;
}

function rankFile(uri: vscode.Uri, dir: string): number {
  return vscode.Uri.joinPath(uri, '..').toString() === dir ? 0 : 1;
}
