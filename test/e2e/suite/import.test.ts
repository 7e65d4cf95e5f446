// Import Judge Prompt… in the real extension host, with its arguments instead of the dialogs: the
// templates of a promptfoo config are written beside it, validate clean, open with the preview, and
// a second import leaves the files it finds unchanged.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, until, workspaceFile } from './util';

const CONFIG = `tests:
  - vars: {question: How long is a marathon?}
    assert:
      - type: llm-rubric
        metric: gives_distance
        value: States the distance in kilometres or miles
      - type: model-graded-closedqa
        value: Mentions 42.195 km
`;

describe('import judge prompts', () => {
  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Import Judge Prompt… writes a template per promptfoo grader, opens them with the preview, and never overwrites', async () => {
    const source = workspaceFile('promptfooconfig.yaml');
    await vscode.workspace.fs.writeFile(source, new TextEncoder().encode(CONFIG));
    type Outcome = { written: string[]; skipped: string[]; problems: string[] };
    const outcome = await vscode.commands.executeCommand<Outcome>('judgeStudio.importJudgePrompt', { file: source.fsPath, format: 'promptfoo' });
    assert.ok(outcome);
    assert.deepEqual(outcome.written.map((f) => f.split(/[\\/]/).pop()), ['gives_distance.judge', 'model_graded_closedqa_2.judge']);
    assert.deepEqual(outcome.problems, []);
    const first = vscode.Uri.file(outcome.written[0]!);
    await until('the preview of the first imported template', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('judgeStudio.preview')),
    [vscode.window.tabGroups.onDidChangeTabs]);
    await until('the imported template to be validated clean', () => vscode.workspace.textDocuments.some((d) => d.uri.toString() === first.toString()) && vscode.languages.getDiagnostics(first).filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length === 0);
    const again = await vscode.commands.executeCommand<Outcome>('judgeStudio.importJudgePrompt', { file: source.fsPath, format: 'promptfoo' });
    assert.equal(again?.written.length, 0);
    assert.equal(again?.skipped.length, 2);
  });
});
