// The calibration command in a real VS Code: it reads a results file, opens one webview panel
// per (file, metric) and returns what the panel shows.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CalibrationView } from '../../../src/protocol/calibrate';
import { EXTENSION_ID, until, workspaceFile } from './util';

const METRIC = 'pairwise_fluency';

/** Humans (in Vertex AI's spelling) × judge: A→A 6, A→B 2, A→TIE 1; B→A 1, B→B 5, B→TIE 1; TIE→B 1, TIE→TIE 3. */
function resultsFile(): string {
  const plan: [string, string, number][] = [
    ['BASELINE', 'A', 6], ['BASELINE', 'B', 2], ['BASELINE', 'TIE', 1],
    ['CANDIDATE', 'A', 1], ['CANDIDATE', 'B', 5], ['CANDIDATE', 'TIE', 1],
    ['SAME', 'A', 0], ['SAME', 'B', 1], ['SAME', 'TIE', 3],
  ];
  const lines: string[] = [];
  for (const [human, judge, times] of plan) {
    for (let k = 0; k < times; k++) {
      const i = lines.length + 1;
      lines.push(JSON.stringify({
        id: `f${i}`,
        prompt: `Rewrite sentence ${i} fluently.`,
        baseline_model_response: `Baseline answer ${i}.`,
        response: `Candidate answer number ${i}.`,
        [`${METRIC}/human_pairwise_choice`]: human,
        [`${METRIC}/pairwise_choice`]: judge,
        [`${METRIC}/justification`]: `Row ${i}: ${judge} reads better.`,
        [`${METRIC}/passes`]: [
          { order: 'AB', winner: judge, confidence: 0.8, justification: '' },
          { order: 'BA', winner: judge, confidence: 0.7, justification: '' },
        ],
        [`${METRIC}/position_consistent`]: true,
      }));
    }
  }
  return lines.join('\n') + '\n';
}

function calibrationTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('judgeStudio.calibration'));
}

describe('calibration view', () => {
  const file = workspaceFile('calibration-e2e/pairwise_fluency.results.jsonl');

  before(async () => {
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(resultsFile()));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(file, '..'), { recursive: true });
  });

  it('opens a calibration panel for a results file and returns the heat map it shows', async () => {
    const before = calibrationTabs().length;
    const view = await vscode.commands.executeCommand<CalibrationView | undefined>('judgeStudio.calibrate', { file: file.fsPath, metric: METRIC });
    assert.ok(view, 'the command should return the calibration it shows');
    assert.equal(view.n, 20);
    assert.deepEqual(view.labels, ['A', 'B', 'TIE']);
    const ab = view.rows[0]?.cells[1];
    assert.deepEqual(ab && [ab.human, ab.judge, ab.count, ab.share], ['A', 'B', 2, 2 / 9]);
    assert.ok(view.guidance.warnings.some((w) => /only 20 labelled rows/.test(w)), 'a sample under 30 rows is flagged');
    const tabs = await until('a calibration tab', () => (calibrationTabs().length > before ? calibrationTabs() : undefined), [vscode.window.tabGroups.onDidChangeTabs]);
    assert.ok(tabs.some((t) => t.label === `Calibration: ${METRIC} (pairwise_fluency.results.jsonl)`), `tabs: ${tabs.map((t) => t.label).join(', ')}`);
  });

  it('reveals the open panel instead of opening a second one for the same file and metric', async () => {
    const view = await vscode.commands.executeCommand<CalibrationView | undefined>('judgeStudio.calibrate', { file: file.fsPath, metric: METRIC });
    assert.equal(view?.n, 20);
    assert.equal(calibrationTabs().filter((t) => t.label.startsWith(`Calibration: ${METRIC} (`)).length, 1);
  });

  it('returns nothing and explains in the panel when the file has no labels for the metric', async () => {
    const before = calibrationTabs().length;
    const view = await vscode.commands.executeCommand<CalibrationView | undefined>('judgeStudio.calibrate', { file: file.fsPath, metric: 'helpfulness' });
    assert.equal(view, undefined);
    const tabs = await until('the explaining panel', () => (calibrationTabs().length > before ? calibrationTabs() : undefined), [vscode.window.tabGroups.onDidChangeTabs]);
    assert.ok(tabs.some((t) => t.label === 'Calibration: helpfulness (pairwise_fluency.results.jsonl)'), `tabs: ${tabs.map((t) => t.label).join(', ')}`);
  });

  it('is offered in the explorer and editor context menus of data files', () => {
    const menus = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON?.contributes?.menus as Record<string, { command: string; when?: string }[]> | undefined;
    for (const menu of ['explorer/context', 'editor/context']) {
      const entry = menus?.[menu]?.find((m) => m.command === 'judgeStudio.calibrate');
      assert.ok(entry?.when?.includes('jsonl'), `${menu}: ${JSON.stringify(entry)}`);
    }
  });
});
