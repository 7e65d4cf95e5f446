// The dataset row chosen for a template's preview: resolving it (the remembered choice, else a
// sibling dataset and row 1), reading it, and the pickers that change it. A JSONL file is indexed
// once per change (byte offsets of its rows) and only the rows shown are read and parsed; CSV and
// JSON arrays are parsed whole, once per change.
import * as vscode from 'vscode';
import { isDatasetChoice } from '../../core/workspace/choices';
import {
  bufferSource,
  DatasetError,
  fileSource,
  formatOf,
  indexJsonl,
  isSkip,
  parseDataset,
  parseDatasetBytes,
  readIndexedRows,
  type ByteSource,
  type DatasetFormat,
  type DatasetItem,
  type JsonlIndex,
} from '../../core/dataset';
import { printable } from '../../core/text';
import type { SampleView } from '../language/model/edits';
import type { SampleHost } from '../sampleHost';
import type { SampleOutcome } from './model';
import { datasetColumns, rowSummary, selectRow, siblingDatasetNames } from './rows';
import type { SampleInfo } from '../../protocol/preview';

/** A dataset as the editor reads it: a row count, and rows read on demand. */
export interface SampleData {
  readonly rows: number;
  item(row: number): Promise<DatasetItem | undefined>;
  /** Rows `from`..`to` (1-based, inclusive, clamped to the dataset). */
  range(from: number, to: number): Promise<DatasetItem[]>;
}

export interface Sample {
  info: SampleInfo;
  outcome: SampleOutcome;
  dataset: vscode.Uri | undefined;
  data: SampleData;
}

const EMPTY: SampleData = { rows: 0, item: async () => undefined, range: async () => [] };

const DATASET_GLOB = '**/*.{jsonl,ndjson,json,csv}';
/** Rows listed in a row picker around the current one; past that, the picker asks for a number. */
const PICK_WINDOW = 500;

export class Samples implements vscode.Disposable {
  private readonly cache = new Map<string, { stamp: string; data: Promise<SampleData> }>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  /** Fires with a dataset's URI when its file or open document changes. */
  readonly onDidChangeDataset = this.changed.event;

  /** One per extension (on the Studio): every feature shares its cache and its one file watcher. */
  constructor(private readonly host: SampleHost) {
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
    const saved = this.host.selection(template);
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

  /** A dataset's rows, indexed or parsed again only when the file (or its open, unsaved document) changes. */
  async data(dataset: vscode.Uri): Promise<SampleData> {
    const key = dataset.toString();
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    const stamp = open ? `doc:${open.version}` : await fileStamp(dataset);
    const hit = this.cache.get(key);
    if (hit && hit.stamp === stamp) return hit.data;
    const data = load(dataset, datasetFormat(dataset), open);
    this.cache.set(key, { stamp, data });
    // A failed read is not cached: the next look tries again.
    data.catch(() => {
      if (this.cache.get(key)?.data === data) this.cache.delete(key);
    });
    return data;
  }

  async sample(template: vscode.Uri): Promise<Sample> {
    const choice = await this.choice(template);
    if (!choice) {
      const base = template.path.slice(template.path.lastIndexOf('/') + 1);
      const beside = template.path.startsWith('/') ? `, and none beside the template (${siblingDatasetNames(base).join(', ')})` : '';
      const message = `No dataset chosen${beside}; use "Choose dataset…" to pick one.`;
      return { info: { dataset: null, row: 1, rows: 0 }, outcome: { ok: false, code: 'no-dataset', message }, dataset: undefined, data: EMPTY };
    }
    const label = vscode.workspace.asRelativePath(choice.dataset);
    try {
      const data = await this.data(choice.dataset);
      const item = await data.item(choice.row);
      return { info: { dataset: label, row: choice.row, rows: data.rows }, outcome: selectRow(item ? [item] : [], choice.row, label, data.rows), dataset: choice.dataset, data };
    } catch (e) {
      const message = e instanceof DatasetError ? `${label}: ${e.message}` : `cannot read ${label}: ${printable((e as Error).message, 300)}`;
      return { info: { dataset: label, row: choice.row, rows: 0 }, outcome: { ok: false, code: 'dataset-unreadable', message }, dataset: choice.dataset, data: EMPTY };
    }
  }

  /** What completion and hover show about the chosen row; never throws. */
  async view(template: vscode.Uri): Promise<SampleView> {
    try {
      const s = await this.sample(template);
      return {
        columns: datasetColumns(await s.data.range(1, 50)),
        ...(s.outcome.ok && { record: s.outcome.record, row: s.info.row }),
        ...(s.info.dataset && { dataset: s.info.dataset }),
      };
    } catch (e) {
      this.host.log.warn(`reading the sample for ${template.toString()} failed`, e);
      return { columns: [] };
    }
  }

  async pickDataset(template: vscode.Uri): Promise<boolean> {
    const dir = vscode.Uri.joinPath(template, '..').toString();
    const files = (await vscode.workspace.findFiles(DATASET_GLOB, '**/node_modules/**', 500)).filter((u) => isDatasetChoice(vscode.workspace.asRelativePath(u, false)));
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
    await this.host.setSelection(template, { dataset: uri.toString(), row: 1 });
    return true;
  }

  async pickRow(template: vscode.Uri): Promise<boolean> {
    const sample = await this.sample(template);
    if (!sample.dataset) return this.pickDataset(template);
    if (!sample.data.rows) {
      void vscode.window.showWarningMessage(sample.outcome.ok ? `${sample.info.dataset} has no rows.` : sample.outcome.message);
      return false;
    }
    const row = await chooseRow(sample, `Row of ${sample.info.dataset} for the preview`);
    if (row === undefined) return false;
    await this.host.setSelection(template, { dataset: sample.dataset.toString(), row });
    return true;
  }

  async stepRow(template: vscode.Uri, delta: number): Promise<void> {
    const sample = await this.sample(template);
    if (!sample.dataset || !sample.info.rows) return;
    const row = Math.min(sample.info.rows, Math.max(1, sample.info.row + delta));
    if (row !== sample.info.row) await this.host.setSelection(template, { dataset: sample.dataset.toString(), row });
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/**
 * A quick pick of the sample's rows, its current row active; the row chosen, or undefined. A big
 * dataset lists the rows around the current one and offers to go to any row by number.
 */
export async function chooseRow(sample: Sample, title: string): Promise<number | undefined> {
  type Item = vscode.QuickPickItem & { row: number };
  const total = sample.data.rows;
  const from = Math.max(1, Math.min(sample.info.row - Math.floor(PICK_WINDOW / 2), total - PICK_WINDOW + 1));
  const shown = await sample.data.range(from, from + PICK_WINDOW - 1);
  const items: Item[] = shown.map((item) => ({
    label: `Row ${item.row}`,
    description: isSkip(item) ? '$(warning) unreadable' : rowSummary(item.record),
    ...(isSkip(item) && { detail: item.error }),
    row: item.row,
  }));
  const partial = shown.length < total;
  if (partial) items.push({ label: '$(list-ordered) Go to row…', description: `${total.toLocaleString('en-US')} rows; rows ${from}–${from + shown.length - 1} listed`, alwaysShow: true, row: 0 });
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = title;
  qp.items = items;
  qp.matchOnDescription = true;
  qp.activeItems = items.filter((i) => i.row === sample.info.row);
  let row = await new Promise<number | undefined>((resolve) => {
    qp.onDidAccept(() => resolve(qp.selectedItems[0]?.row));
    qp.onDidHide(() => resolve(undefined));
    qp.show();
  });
  qp.dispose();
  if (row === 0) {
    const typed = await vscode.window.showInputBox({
      title,
      prompt: `Row number, 1 to ${total}`,
      value: String(sample.info.row),
      validateInput: (v) => (/^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= total ? undefined : `Enter a whole number from 1 to ${total}.`),
    });
    row = typed === undefined ? undefined : Number(typed.trim());
  }
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

/** Indexes a JSONL dataset (rows read on demand); parses any other format whole. */
async function load(uri: vscode.Uri, format: DatasetFormat, open: vscode.TextDocument | undefined): Promise<SampleData> {
  const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  if (format === 'jsonl') {
    let source: ByteSource;
    if (open) source = bufferSource(Buffer.from(open.getText(), 'utf8'));
    else if (uri.scheme === 'file') source = fileSource(uri.fsPath);
    else source = bufferSource(await vscode.workspace.fs.readFile(uri));
    const index = await indexJsonl(source);
    if (index) return indexed(source, index);
  }
  const items = open ? parseDataset(open.getText(), format) : parseDatasetBytes(await vscode.workspace.fs.readFile(uri), format, name);
  return parsed(items);
}

function indexed(source: ByteSource, index: JsonlIndex): SampleData {
  return {
    rows: index.rows,
    item: async (row) => (await readIndexedRows(source, index, row, row))[0],
    range: (from, to) => readIndexedRows(source, index, from, to),
  };
}

function parsed(items: DatasetItem[]): SampleData {
  // Rows are numbered 1..N in order, so row r is items[r - 1].
  return {
    rows: items.length,
    item: async (row) => items[row - 1],
    range: async (from, to) => items.slice(Math.max(0, from - 1), Math.max(0, to)),
  };
}
