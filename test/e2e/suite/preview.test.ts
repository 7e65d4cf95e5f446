// The preview command in a real VS Code: it opens a webview panel beside the template.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { openJudge, until } from './util';

function previewTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('judgeStudio.preview'));
}

describe('rendered-prompt preview', () => {
  it('opens one preview beside the template, and reveals it instead of opening a second', async () => {
    const doc = await openJudge('helpfulness.judge');
    const before = previewTabs().length;
    await vscode.commands.executeCommand('judgeStudio.openPreviewToSide', doc.uri);
    const tabs = await until('a preview tab', () => (previewTabs().length > before ? previewTabs() : undefined), [vscode.window.tabGroups.onDidChangeTabs]);
    const tab = tabs.find((t) => t.label === 'Preview helpfulness.judge');
    assert.ok(tab, `tabs: ${tabs.map((t) => t.label).join(', ')}`);
    const editorColumn = vscode.window.tabGroups.all.find((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === doc.uri.toString()))?.viewColumn;
    assert.notEqual(tab.group.viewColumn, editorColumn, 'the preview should open to the side');
    await vscode.commands.executeCommand('judgeStudio.openPreviewToSide', doc.uri);
    assert.equal(previewTabs().filter((t) => t.label === 'Preview helpfulness.judge').length, 1);
  });
});
