// "Show Result Row" from the palette: pick a results file (the batches in the history first),
// then one of its rows, listed with its verdict.
import * as vscode from 'vscode';
import { isSkip, parseDataset } from '../../core/dataset';
import type { History } from './history';
import { consistencyText, metricOf, resultView, verdictText } from './model/result';
import { baseName } from './template';

export async function pickResultRow(history: History): Promise<{ file: vscode.Uri; row: number; metric?: string } | undefined> {
  type FileItem = vscode.QuickPickItem & { uri?: vscode.Uri };
  const seen = new Set<string>();
  const items: FileItem[] = [];
  const files = await history.files();
  const batches = files.flatMap((f) => f.entries.flatMap((e) => (e.type === 'batch' ? [{ e, uri: history.resolve(f.root, e.results) }] : [])));
  for (const { e, uri } of batches.sort((a, b) => b.e.time.localeCompare(a.e.time))) {
    if (seen.has(uri.toString())) continue;
    seen.add(uri.toString());
    items.push({ label: baseName(uri), description: `${e.metric} on ${e.dataset}`, detail: new Date(e.time).toLocaleString(), uri });
  }
  items.push({ label: '$(folder-opened) Browse…', alwaysShow: true });
  const picked = await vscode.window.showQuickPick(items, { title: 'Show a row of which results file?', matchOnDescription: true });
  if (!picked) return undefined;
  let file = picked.uri;
  if (!file) {
    file = (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { Results: ['jsonl', 'json', 'csv'] }, openLabel: 'Show a row' }))?.[0];
    if (!file) return undefined;
  }
  const text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(file));
  type RowItem = vscode.QuickPickItem & { row: number };
  const rows: RowItem[] = parseDataset(text, file.path.endsWith('.csv') ? 'csv' : file.path.endsWith('.json') ? 'json' : 'jsonl').flatMap((item) => {
    if (isSkip(item)) return [];
    const metric = metricOf(item.record);
    const view = metric ? resultView(item.record, metric) : null;
    const row = typeof item.record._row === 'number' ? item.record._row : item.row;
    return [{ label: `Row ${row}`, description: [verdictText(view), consistencyText(view)].filter(Boolean).join(' · '), row }];
  });
  if (!rows.length) {
    void vscode.window.showWarningMessage(`Judge Studio: ${baseName(file)} has no readable rows.`);
    return undefined;
  }
  const row = await vscode.window.showQuickPick(rows, { title: `Which row of ${baseName(file)}?`, matchOnDescription: true });
  return row ? { file, row: row.row } : undefined;
}
