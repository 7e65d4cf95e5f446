// Reads a results/dataset file once and calibrates one metric on it: the core report plus the
// rows behind each confusion cell. Plain node (no `vscode`), so it is tested without the editor.
import { calibrate, type CalibrationNote, type CalibrationReport } from '../../core/calibration';
import { readDatasetFile, type DatasetItem, type DatasetRow, type DatasetSkip } from '../../core/dataset';
import { humanColumn, humanLabels, keyOf, readLabels } from '../../core/labels';
import { CellIndex } from './cells';

export interface LoadedFile {
  rows: DatasetRow[];
  skipped: DatasetSkip[];
}

export type Calibrated =
  | { ok: true; report: CalibrationReport; notes: CalibrationNote[]; notesOmitted: number; cells: CellIndex }
  | { ok: false; error: string };

/** The file's rows and malformed records; an Error (naming the file) when it cannot be read at all. */
export async function loadFile(file: string, signal?: AbortSignal): Promise<LoadedFile> {
  return readDatasetFile(file, signal ? { signal } : {});
}

/**
 * Calibrates `metric` on rows already read; the errors are the core's, prefixed with the file as shown.
 * With `labelsFile` (the review's labels beside the file), its majority labels replace the rows' own human column.
 */
export async function calibrateLoaded(data: LoadedFile, metric: string, display: string, labelsFile?: string): Promise<Calibrated> {
  if (labelsFile) data = { ...data, rows: await withLabels(data.rows, metric, labelsFile) };
  // The core counts malformed records too, so it gets every item back in file order.
  const items: DatasetItem[] = [...data.rows, ...data.skipped].sort((a, b) => a.row - b.row);
  const outcome = await calibrate(items, metric);
  if (!outcome.ok) return { ok: false, error: `${display}: ${outcome.error}` };
  const cells = new CellIndex(data.rows, metric, outcome.report.kind);
  return { ok: true, report: outcome.report, notes: outcome.notes, notesOmitted: outcome.notesOmitted, cells };
}

/** loadFile + calibrateLoaded, with a reading error turned into a value. */
export async function calibrateFile(file: string, metric: string, display: string, signal?: AbortSignal, labelsFile?: string): Promise<Calibrated> {
  let data: LoadedFile;
  try {
    data = await loadFile(file, signal);
  } catch (e) {
    return { ok: false, error: (e as Error).message.split(file).join(display) };
  }
  return calibrateLoaded(data, metric, display, labelsFile);
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
