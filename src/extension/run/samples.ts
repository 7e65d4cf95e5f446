// Choosing what to judge from the editor: the template (the active one, the dataset's sibling,
// the last one used, or a quick pick), and the sample (a dataset row, the JSONL line under the
// cursor, or the selection). Each returns a RunRequest or undefined after telling the user why.
import * as vscode from 'vscode';
import { isDatasetChoice, isTemplateChoice } from '../../core/workspace/choices';
import { isSkip, parseDataset, type DatasetRecord } from '../../core/dataset';
import { pairFields, pairStyle, usedFields } from '../../core/template';
import { chooseRow, exists, type Samples } from '../preview/datasets';
import { isJudgeDocument, type Studio } from '../studio';
import type { RunRequest } from './controller';
import { decodeSelectedValue, sampleFromSelection, type SelectionTarget } from './model/selection';
import { baseName } from './template';
import { TemplatePicker, type Candidate } from './templatePick';

export class SampleChooser implements vscode.Disposable {
  /** The template editor focused last: a selection elsewhere is judged with it. */
  private lastTemplate: vscode.Uri | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  readonly picker: TemplatePicker;

  constructor(
    private readonly studio: Studio,
    private readonly samples: Samples,
  ) {
    this.picker = new TemplatePicker(studio);
    const note = (e: vscode.TextEditor | undefined) => {
      if (e && isJudgeDocument(e.document)) this.lastTemplate = e.document.uri;
    };
    note(vscode.window.activeTextEditor);
    this.disposables.push(vscode.window.onDidChangeActiveTextEditor(note));
  }

  /** The template for a sample outside a template editor: the dataset's sibling, the last used, the only one, or a pick. */
  async template(datasetHint?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const active = vscode.window.activeTextEditor?.document;
    if (active && isJudgeDocument(active)) return active.uri;
    if (datasetHint) {
      const sibling = vscode.Uri.joinPath(datasetHint, '..', baseName(datasetHint).replace(/\.(jsonl|ndjson|json|csv)$/i, '.judge'));
      if (sibling.toString() !== datasetHint.toString() && (await exists(sibling))) return sibling;
    }
    if (this.lastTemplate) return this.lastTemplate;
    const all = (await vscode.workspace.findFiles('**/*.judge', '**/node_modules/**', 500)).filter((u) => isTemplateChoice(vscode.workspace.asRelativePath(u, false)));
    if (all.length === 1) return all[0];
    if (!all.length) {
      void vscode.window.showInformationMessage('Judge Studio: there is no .judge template in this workspace to run.');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      all.sort((a, b) => a.path.localeCompare(b.path)).map((uri) => ({ label: baseName(uri), description: vscode.workspace.asRelativePath(vscode.Uri.joinPath(uri, '..')), uri })),
      { title: 'Judge the sample with which template?', matchOnDescription: true },
    );
    return picked?.uri;
  }

  /** A row of the template's dataset: `row` when given, else the preview's row (`current`), else a quick pick. */
  async datasetRow(template: vscode.Uri, opts: { row?: number; dataset?: vscode.Uri; current?: boolean } = {}): Promise<RunRequest | undefined> {
    if (opts.dataset) await this.studio.setSelection(template, { dataset: opts.dataset.toString(), row: opts.row ?? 1 });
    let sample = await this.samples.sample(template);
    if (!sample.dataset) {
      if (!(await this.samples.pickDataset(template))) return undefined;
      sample = await this.samples.sample(template);
    }
    if (!sample.dataset) return undefined;
    let row = opts.row ?? (opts.current ? sample.info.row : undefined);
    if (row === undefined) {
      if (!sample.data.rows) {
        void vscode.window.showWarningMessage(`Judge Studio: ${sample.info.dataset} has no rows to judge.`);
        return undefined;
      }
      row = await chooseRow(sample, `Judge which row of ${sample.info.dataset}?`);
      if (row === undefined) return undefined;
      // The preview follows the row that was judged.
      await this.studio.setSelection(template, { dataset: sample.dataset.toString(), row });
    }
    const item = await sample.data.item(row);
    if (!item || isSkip(item)) {
      void vscode.window.showWarningMessage(`Judge Studio: ${sample.info.dataset}, row ${row}: ${item && isSkip(item) ? item.error : 'no such row'}.`);
      return undefined;
    }
    return { template, record: item.record, row, source: `${sample.info.dataset}, row ${row}`, note: null };
  }

  /** The JSONL record on the cursor's line of a dataset editor. */
  async lineUnderCursor(editor: vscode.TextEditor, template?: vscode.Uri): Promise<RunRequest | undefined> {
    const doc = editor.document;
    const lineNo = editor.selection.active.line + 1;
    const item = parseDataset(doc.getText(), 'jsonl').find((i) => i.line === lineNo);
    const where = `${baseName(doc.uri)}, line ${lineNo}`;
    if (!item) {
      void vscode.window.showWarningMessage(`Judge Studio: ${where} is blank; put the cursor on a JSON line.`);
      return undefined;
    }
    if (isSkip(item)) {
      void vscode.window.showWarningMessage(`Judge Studio: ${where}: ${item.error}`);
      return undefined;
    }
    const record = item.record;
    const chosen = template ? { uri: template, how: null } : await this.templateForLine(doc.uri, (c) => [...usedFields(c.parsed)].every((f) => f in record), `row ${item.row} of ${baseName(doc.uri)}`);
    if (!chosen) return undefined;
    return { template: chosen.uri, record, row: item.row, source: `${vscode.workspace.asRelativePath(doc.uri)}, row ${item.row}`, note: null, how: chosen.how };
  }

  /** A dataset line's template: the dataset's sibling `.judge`, else the picker's choice among those that fit. */
  private async templateForLine(dataset: vscode.Uri, fits: (c: Candidate) => boolean, what: string): Promise<{ uri: vscode.Uri; how: string | null } | undefined> {
    const sibling = vscode.Uri.joinPath(dataset, '..', baseName(dataset).replace(/\.(jsonl|ndjson|json|csv)$/i, '.judge'));
    if (sibling.toString() !== dataset.toString() && !this.picker.remembered(dataset) && (await exists(sibling))) return { uri: sibling, how: `the template beside ${baseName(dataset)}` };
    return this.picker.choose({ file: dataset, fits, preferred: this.lastTemplate, what });
  }

  /** The selection(s) of an editor as a sample, the rest of the fields from the template's sample row. */
  async selection(editor: vscode.TextEditor, template?: vscode.Uri): Promise<RunRequest | undefined> {
    const doc = editor.document;
    const texts = [...editor.selections].sort((a, b) => a.start.compareTo(b.start)).map((s) => doc.getText(s));
    // Inside a JSONL line, the other fields come from that line; elsewhere from the template's sample row.
    const line = this.enclosingLine(editor);
    const values = line ? texts.map((t) => decodeSelectedValue(t, line.record)) : texts;
    const what = `the selection in ${baseName(doc.uri)}`;
    let chosen: { uri: vscode.Uri; how: string | null } | undefined = template ? { uri: template, how: null } : undefined;
    // A template fits when the selection makes a sample of its kind (one response, two, or an object).
    chosen ??= await this.picker.choose({ file: doc.uri, fits: (c) => sampleFromSelection(values, targetOf(c), line).ok, preferred: this.lastTemplate, what });
    if (!chosen) return undefined;
    const name = baseName(chosen.uri);
    const parsed = this.studio.template(await vscode.workspace.openTextDocument(chosen.uri));
    if (!parsed.config) {
      void vscode.window.showErrorMessage(`Judge Studio: the template ${name} has front-matter errors; fix them before running it.`);
      return undefined;
    }
    const sample = line ? undefined : await this.samples.sample(chosen.uri);
    const base = line ?? (sample?.outcome.ok && sample.info.dataset ? { record: sample.outcome.record, label: `${sample.info.dataset}, row ${sample.info.row}` } : undefined);
    const result = sampleFromSelection(values, targetOf({ parsed, config: parsed.config }), base);
    if (!result.ok) {
      void vscode.window.showWarningMessage(`Judge Studio (template ${name}): ${result.message}`);
      return undefined;
    }
    return { template: chosen.uri, record: result.record, source: `selection in ${vscode.workspace.asRelativePath(doc.uri)}`, note: result.note, how: chosen.how };
  }

  /** Asks which template judges this editor's samples (those that fit its selection, when there is one) and remembers it. */
  async chooseFor(editor: vscode.TextEditor): Promise<vscode.Uri | undefined> {
    const doc = editor.document;
    const texts = editor.selections.map((s) => doc.getText(s));
    const line = this.enclosingLine(editor);
    const values = line ? texts.map((t) => decodeSelectedValue(t, line.record)) : texts;
    const fits = texts.some((t) => t.trim() !== '') ? (c: Candidate) => sampleFromSelection(values, targetOf(c), line).ok : () => true;
    return (await this.picker.choose({ file: doc.uri, fits, preferred: this.lastTemplate, what: `samples in ${baseName(doc.uri)}`, ask: true }))?.uri;
  }

  /** The JSONL record every selection of a dataset editor lies in, when they all lie in one readable line. */
  private enclosingLine(editor: vscode.TextEditor): { record: DatasetRecord; label: string } | undefined {
    const doc = editor.document;
    if (!/\.(jsonl|ndjson)$/i.test(doc.uri.path)) return undefined;
    const lines = new Set(editor.selections.flatMap((s) => [s.start.line, s.end.line]));
    if (lines.size !== 1) return undefined;
    const lineNo = [...lines][0]! + 1;
    const item = parseDataset(doc.getText(), 'jsonl').find((i) => i.line === lineNo);
    return item && !isSkip(item) ? { record: item.record, label: `${vscode.workspace.asRelativePath(doc.uri)}, row ${item.row}` } : undefined;
  }

  /** The dataset for a batch: the preview's dataset first, then every other dataset file in the workspace. */
  async datasetForBatch(template: vscode.Uri): Promise<vscode.Uri | undefined> {
    const current = (await this.samples.choice(template))?.dataset;
    const files = (await vscode.workspace.findFiles('**/*.{jsonl,ndjson,json,csv}', '{**/node_modules/**,**/.judge-studio/**,**/.vscode/**}', 500))
      .filter((u) => isDatasetChoice(vscode.workspace.asRelativePath(u, false)) && u.toString() !== current?.toString())
      .sort((a, b) => a.path.localeCompare(b.path));
    type Item = vscode.QuickPickItem & { uri?: vscode.Uri };
    const item = (uri: vscode.Uri, detail?: string): Item => ({
      label: baseName(uri),
      description: vscode.workspace.asRelativePath(vscode.Uri.joinPath(uri, '..')),
      ...(detail ? { detail } : {}),
      uri,
    });
    const items: Item[] = [...(current ? [item(current, "the preview's dataset")] : []), ...files.map((u) => item(u)), { label: '$(folder-opened) Browse…', alwaysShow: true }];
    const picked = await vscode.window.showQuickPick(items, { title: `Run ${baseName(template)} on which dataset?`, placeHolder: 'JSONL, JSON array or CSV with a header', matchOnDescription: true });
    if (!picked) return undefined;
    if (picked.uri) return picked.uri;
    const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, defaultUri: vscode.Uri.joinPath(template, '..'), filters: { Datasets: ['jsonl', 'ndjson', 'json', 'csv'] }, openLabel: 'Run on this dataset' });
    return chosen?.[0];
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

function targetOf(c: Pick<Candidate, 'parsed' | 'config'>): SelectionTarget {
  return { kind: c.config.kind, pair: pairFields(pairStyle(c.parsed)), used: usedFields(c.parsed) };
}
