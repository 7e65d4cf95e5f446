// Authoring help in the real extension host: generating a rubric against a local OpenAI-compatible
// server, reviewing it in the diff editor, accepting it (then the template has no diagnostics);
// the code actions that start generation; New Judge Template writing and opening its files.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeOpenAI, reply } from '../../support/fakeOpenAI';
import { generateJudge } from '../../support/generateFixtures';
import { EXTENSION_ID, judgeDiagnostics, until, workspaceFile } from './util';

const config = () => vscode.workspace.getConfiguration('judgeStudio');

const DRAFT = `---
name: concision
kind: pointwise
scale: [1, 3]
inputs: [prompt, response]
---
# Criteria

The response answers the prompt without words it does not need.

# Rubric

- 3:
- 2:
- 1:

# Evaluation steps

1. Read the prompt and the response.
2. Note every sentence that adds nothing.
3. Write your justification first, then the score.

# Task

<prompt>{{prompt}}</prompt>
<response>{{response}}</response>
`;

function diffTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'judge-studio-proposal');
}

describe('authoring help', () => {
  let fake: FakeOpenAI;

  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)?.activate();
    fake = await FakeOpenAI.start({ rules: [generateJudge()] });
    await config().update('endpoint.baseUrl', fake.baseURL, vscode.ConfigurationTarget.Global);
    await config().update('endpoint.model', 'fake-writer', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await config().update('endpoint.baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await config().update('endpoint.model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await fake.close();
  });

  it('generates a rubric, shows it as a diff, and after accepting the template has no diagnostics', async () => {
    const uri = workspaceFile('concision.judge');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(DRAFT));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    await until('the empty levels to be reported', () => judgeDiagnostics(uri).filter((d) => String(typeof d.code === 'object' ? d.code.value : d.code) === 'empty-rubric-level').length === 3, [vscode.languages.onDidChangeDiagnostics]);

    const result = await vscode.commands.executeCommand<{ ok: boolean; proposal?: string; message?: string }>('judgeStudio.generateRubric', { uri: uri.toString(), strictness: 'strict', domain: 'technical writing' });
    assert.ok(result?.ok, result?.message);
    assert.equal(doc.getText(), DRAFT, 'nothing is written before the user accepts');
    const [tab] = await until('the diff editor', () => (diffTabs().length ? diffTabs() : undefined), [vscode.window.tabGroups.onDidChangeTabs]);
    const proposal = (tab!.input as vscode.TabInputTextDiff).modified;
    const proposed = (await vscode.workspace.openTextDocument(proposal)).getText();
    assert.match(proposed, /^- 3 \(Level 3\): /m);
    assert.match(proposed, /generated:\n {2}rubric: \{model: "fake-writer"/);
    assert.equal(fake.chats.at(-1)?.body?.response_format?.json_schema?.name, 'judge_studio_rubric');

    assert.equal(await vscode.commands.executeCommand('judgeStudio.acceptGenerated', proposal), true);
    assert.equal(doc.getText(), proposed);
    await until('the diff editor to close', () => diffTabs().length === 0, [vscode.window.tabGroups.onDidChangeTabs]);
    await until('no diagnostics on the accepted template', () => judgeDiagnostics(uri).length === 0, [vscode.languages.onDidChangeDiagnostics]);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('leaves the template alone and says why when the model never gives a usable rubric', async () => {
    fake.rules = [() => reply({ levels: [], edge_cases: [], guidelines: [] })];
    try {
      const uri = workspaceFile('concision.judge');
      const doc = await vscode.workspace.openTextDocument(uri);
      const before = doc.getText();
      const result = await vscode.commands.executeCommand<{ ok: boolean; message?: string }>('judgeStudio.generateRubric', { uri: uri.toString(), strictness: 'balanced' });
      assert.equal(result?.ok, false);
      assert.match(result?.message ?? '', /nor after one repair request/);
      assert.equal(doc.getText(), before);
      assert.equal(diffTabs().length, 0);
    } finally {
      fake.rules = [generateJudge()];
    }
  });

  it('offers generation on the # Criteria heading and as a quick fix for an empty level', async () => {
    const uri = workspaceFile('concision.judge');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const at = async (line: number) => {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, new vscode.Range(line, 0, line, 0));
      return actions.map((a) => a.title);
    };
    const heading = doc.getText().split('\n').indexOf('# Criteria');
    assert.ok((await at(heading)).includes('Generate the rubric from the criteria…'));
    assert.ok((await at(heading)).includes('Generate evaluation steps from the criteria…'));
    if (doc.getText().includes('- 3:\n')) {
      await until('the empty level diagnostics', () => judgeDiagnostics(uri).length > 0, [vscode.languages.onDidChangeDiagnostics]);
      const empty = judgeDiagnostics(uri).find((d) => String(typeof d.code === 'object' ? d.code.value : d.code) === 'empty-rubric-level');
      const quick = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, empty!.range, vscode.CodeActionKind.QuickFix.value);
      assert.ok(quick.some((a) => a.title === 'Generate the rubric from the criteria…'));
    }
  });

  it('New Judge Template writes a valid template and a two-row dataset and opens them with the preview', async () => {
    const created = await vscode.commands.executeCommand<{ template: string; dataset: string }>('judgeStudio.newTemplate', { kind: 'pairwise', name: 'preference_check' });
    assert.ok(created);
    const template = vscode.Uri.parse(created.template);
    const dataset = (await vscode.workspace.fs.readFile(vscode.Uri.parse(created.dataset))).toString();
    assert.equal(dataset.trim().split('\n').length, 2);
    await until('the preview of the new template', () =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('judgeStudio.preview')),
    [vscode.window.tabGroups.onDidChangeTabs]);
    assert.ok(vscode.workspace.textDocuments.some((d) => d.uri.toString() === created.dataset), 'the dataset is open');
    await until('the new template to be validated clean', () => vscode.languages.getDiagnostics(template).length === 0 && vscode.workspace.textDocuments.some((d) => d.uri.toString() === template.toString()));
    const again = await vscode.commands.executeCommand('judgeStudio.newTemplate', { kind: 'pairwise', name: 'preference_check' });
    assert.equal(again, undefined, 'an existing template is never replaced');
  });
});
