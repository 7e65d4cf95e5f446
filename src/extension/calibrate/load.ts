// Reads a results/dataset file and calibrates one metric on it: the core report plus the rows
// behind each confusion cell. A JSONL file being appended to (a run in progress) is read
// incrementally: only the bytes added since the last look. Plain node (no `vscode`).
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { calibrate, type CalibrationNote, type CalibrationReport } from '../../core/calibration';
import { ByteDecoder, formatOf, isSkip, readDatasetFile, type DatasetItem, type DatasetRow, type DatasetSkip } from '../../core/dataset';
import { JsonlReader } from '../../core/dataset/jsonl';
import { humanColumn, humanLabels, keyOf, readLabels } from '../../core/labels';
import { latestRows } from '../../core/calibration/read';
import { PanelCollector, type PanelFigures } from '../../core/calibration/panel';
import { CellIndex } from './cells';
import { criteriaSwitch, type CriteriaSwitch } from './criteria';
import { calibrationRecord } from '../../core/calibration/criteria';
import { fromFound } from '../../core/calibration/templateScale';
import type { FoundTemplate } from '../../core/labels/templates';
import { reaggregate } from '../../core/calibration/swapRule';
import type { GroupReport } from '../../core/calibration/types';
import { DEFAULT_OPTIONS, groupColumns, hasPasses, sweepOf, type ChosenOptions } from './options';
import type { SweepView } from '../../protocol/calibrate';

export interface LoadedFile {
  rows: DatasetRow[];
  skipped: DatasetSkip[];
}

export type Calibrated =
  | {
      ok: true;
      report: CalibrationReport;
      notes: CalibrationNote[];
      notesOmitted: number;
      cells: CellIndex;
      panel?: PanelFigures;
      criteria?: CriteriaSwitch;
      /** The choices applied, and what the file offers: pairwise passes to re-aggregate, columns to group by. */
      options: { chosen: ChosenOptions; passes: boolean; byColumns: string[] };
      /** With `chosen.by`: calibrate's figures per value of that column. */
      by?: Record<string, GroupReport>;
      /** A tiered run: its threshold sweep. */
      sweep?: SweepView | { error: string };
    }
  | { ok: false; error: string };

/** The file's rows and malformed records; an Error (naming the file) when it cannot be read at all. */
export async function loadFile(file: string, signal?: AbortSignal): Promise<LoadedFile> {
  return readDatasetFile(file, signal ? { signal } : {});
}

/** The workspace's templates named after the metric, to check labels against the one that judged the file (as `calibrate` does). */
export interface TemplatesFound {
  found: readonly FoundTemplate[];
  /** A template's path as the user sees it. */
  shown: (file: string) => string;
}

/**
 * Calibrates `metric` on rows already read; the errors are the core's, prefixed with the file as shown.
 * With `labelsFile` (the review's labels beside the file), its majority labels replace the rows' own human column.
 * With `templates`, a label outside the scale of the template that judged the file is an error.
 * `chosen` re-aggregates a pairwise verdict under a swap rule and splits the figures by a column,
 * as `calibrate --swap-rule R --by C` does.
 */
export async function calibrateLoaded(data: LoadedFile, metric: string, display: string, labelsFile?: string, templates?: TemplatesFound, chosen: ChosenOptions = DEFAULT_OPTIONS): Promise<Calibrated> {
  // Resume appends retried rows: the last line per `_row` stands, as the CLI reads it.
  data = { ...data, rows: latestRows(data.rows) };
  if (labelsFile) data = { ...data, rows: await withLabels(data.rows, metric, labelsFile) };
  // A multi-criterion judge: the overall on its integer view, or one criterion as a metric `m/<c>`.
  const criteria = await criteriaSwitch(data.rows, metric);
  if (criteria) data = { ...data, rows: data.rows.map((r) => ({ ...r, record: calibrationRecord(r.record, metric) })) };
  // The stored passes re-aggregated under the rule chosen: no judge is called, and the cells list the rows as re-aggregated.
  const passes = hasPasses(data.rows, metric);
  const rule = chosen.swapRule;
  if (passes && rule !== 'recorded') data = { ...data, rows: data.rows.map((r) => ({ ...r, record: reaggregate(r.record, metric, rule) })) };
  const byColumns = groupColumns(data.rows);
  const by = chosen.by !== null && byColumns.includes(chosen.by) ? chosen.by : undefined;
  // The core counts malformed records too, so it gets every item back in file order.
  const items: DatasetItem[] = [...data.rows, ...data.skipped].sort((a, b) => a.row - b.row);
  // The template's scale and passing labels: a label outside the scale is an error naming its row.
  const { scale, passingLabels } = templates ? fromFound(templates.found, data.rows, metric, templates.shown, display) : {};
  const outcome = await calibrate(yielding(items), metric, { ...(scale ? { scale } : {}), ...(passingLabels ? { passingLabels } : {}), ...(by !== undefined ? { by } : {}) });
  if (!outcome.ok) return { ok: false, error: `${display}: ${outcome.error}` };
  const cells = new CellIndex(data.rows, metric, outcome.report.kind);
  const collector = new PanelCollector(metric);
  for (const r of data.rows) collector.add(r);
  const panel = await collector.figures(outcome.report.kind);
  const sweep = sweepOf(data.rows, metric);
  const options = { chosen: { swapRule: passes ? rule : 'recorded', by: by ?? null } satisfies ChosenOptions, passes, byColumns };
  return { ok: true, report: outcome.report, notes: outcome.notes, notesOmitted: outcome.notesOmitted, cells, options, ...(outcome.by ? { by: outcome.by } : {}), ...(sweep ? { sweep } : {}), ...(panel ? { panel } : {}), ...(criteria ? { criteria } : {}) };
}

/** loadFile + calibrateLoaded, with a reading error turned into a value. */
export async function calibrateFile(file: string, metric: string, display: string, signal?: AbortSignal, labelsFile?: string, templates?: TemplatesFound, chosen?: ChosenOptions): Promise<Calibrated> {
  let data: LoadedFile;
  try {
    data = await loadFile(file, signal);
  } catch (e) {
    return { ok: false, error: (e as Error).message.split(file).join(display) };
  }
  return calibrateLoaded(data, metric, display, labelsFile, templates, chosen);
}

/** Rows between two yields to the event loop: about 15 ms of calibration on a 2-core machine. */
const YIELD_EVERY = 2048;

/**
 * The items, handing the extension host's event loop back every few thousand: a 100,000-row
 * file recalculated while a batch appends rows never holds the host for long in one piece.
 */
export async function* yielding<T>(items: readonly T[], every = YIELD_EVERY): AsyncIterable<T> {
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % every === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    yield items[i]!;
  }
}

/** The rows with the labels file's majority labels joined by `_key` (the rows as they are when it has none). */
async function withLabels(rows: DatasetRow[], metric: string, labelsFile: string): Promise<DatasetRow[]> {
  const { lines } = await readLabels(labelsFile).catch(() => ({ lines: [] }));
  const human = humanLabels(lines, metric);
  if (human.labels.size === 0) return rows;
  return rows.map((r) => {
    const key = keyOf(r.record, human.fields);
    const label = key === undefined ? undefined : human.labels.get(key);
    return label === undefined ? r : { ...r, record: { ...r.record, [humanColumn(metric, label)]: label } };
  });
}

/** Bytes read per step: a 100,000-row results file is read in a few dozen steps. */
const STEP = 4 * 1024 * 1024;
/** Bytes compared at the start of the file and before the read position to notice a rewrite. */
const PROBE = 256;

/**
 * A JSONL file read as it grows: each `read()` parses only the bytes appended since the last
 * one, and starts over when the file was truncated or rewritten. Other formats are read whole.
 */
export class GrowingFile {
  private decoder: ByteDecoder | undefined;
  private reader: JsonlReader | undefined;
  private offset = 0;
  private head: Buffer = Buffer.alloc(0);
  private tail: Buffer = Buffer.alloc(0);
  private rows: DatasetRow[] = [];
  private skipped: DatasetSkip[] = [];
  /** How the last read went, for logs and tests. */
  lastRead: { mode: 'whole' | 'appended' | 'restarted'; bytes: number } = { mode: 'whole', bytes: 0 };

  constructor(readonly file: string) {}

  /** Throws (naming the file) when it cannot be read, as loadFile does. */
  async read(): Promise<LoadedFile> {
    if (formatOf(this.file) !== 'jsonl') {
      this.lastRead = { mode: 'whole', bytes: 0 };
      return loadFile(this.file);
    }
    try {
      return await this.readJsonl();
    } catch (e) {
      this.decoder = undefined; // start over next time
      if (e instanceof Error && !e.message.includes(this.file)) throw new Error(`cannot read dataset ${this.file}: ${e.message}`, { cause: e });
      throw e;
    }
  }

  private async readJsonl(): Promise<LoadedFile> {
    const handle = await fsp.open(this.file, 'r');
    try {
      const size = (await handle.stat()).size;
      let mode: 'appended' | 'restarted' = 'appended';
      if (!this.decoder || size < this.offset || !(await this.unchanged(handle))) {
        this.reader = new JsonlReader();
        this.decoder = new ByteDecoder(this.reader, path.basename(this.file));
        this.offset = 0;
        this.rows = [];
        this.skipped = [];
        mode = 'restarted';
      }
      const start = this.offset;
      while (this.offset < size) {
        const buf = Buffer.alloc(Math.min(STEP, size - this.offset));
        const { bytesRead } = await handle.read(buf, 0, buf.length, this.offset);
        if (bytesRead === 0) break;
        this.add(this.decoder.push(buf.subarray(0, bytesRead)));
        this.offset += bytesRead;
      }
      this.add(this.decoder.flushHead());
      this.head = await readAt(handle, 0, Math.min(PROBE, this.offset));
      this.tail = await readAt(handle, Math.max(0, this.offset - PROBE), this.offset);
      this.lastRead = { mode, bytes: this.offset - start };
    } finally {
      await handle.close();
    }
    // A last line without its line break yet still counts, as the whole-file reader counts it.
    const pending = this.reader?.peek();
    if (!pending) return { rows: this.rows, skipped: this.skipped };
    return isSkip(pending) ? { rows: this.rows, skipped: [...this.skipped, pending] } : { rows: [...this.rows, pending], skipped: this.skipped };
  }

  private add(items: DatasetItem[]): void {
    for (const item of items) {
      if (isSkip(item)) this.skipped.push(item);
      else this.rows.push(item);
    }
  }

  /** The bytes already read are still there: same start, same bytes just before the read position. */
  private async unchanged(handle: fsp.FileHandle): Promise<boolean> {
    const head = await readAt(handle, 0, this.head.length);
    const tail = await readAt(handle, this.offset - this.tail.length, this.offset);
    return head.equals(this.head) && tail.equals(this.tail);
  }
}

async function readAt(handle: fsp.FileHandle, start: number, end: number): Promise<Buffer> {
  if (end <= start) return Buffer.alloc(0);
  const buf = Buffer.alloc(end - start);
  const { bytesRead } = await handle.read(buf, 0, buf.length, start);
  return buf.subarray(0, bytesRead);
}

/** GrowingFile.read + calibrateLoaded, with a reading error turned into a value (as calibrateFile). */
export async function calibrateGrowing(source: GrowingFile, metric: string, display: string, labelsFile?: string, templates?: TemplatesFound, chosen?: ChosenOptions): Promise<Calibrated> {
  let data: LoadedFile;
  try {
    data = await source.read();
  } catch (e) {
    return { ok: false, error: (e as Error).message.split(source.file).join(display) };
  }
  return calibrateLoaded(data, metric, display, labelsFile, templates, chosen);
}
