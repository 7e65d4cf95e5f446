// Language features in a real VS Code: activation, diagnostics, outline, quick fixes, completion, hover.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, codeOf, diagnosticsWhere, judgeDiagnostics, openJudge, quickFixes, setText, until } from './util';

describe('judge language features', () => {
  it('activates the extension when a .judge file opens', async () => {
    const doc = await openJudge('hhh.judge');
    assert.equal(doc.languageId, 'judge');
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    await until('the extension to activate', () => ext.isActive, [], 20_000);
  });

  it('shows the sections of hhh.judge in the outline, with the rubric levels under Rubric', async () => {
    const doc = await openJudge('hhh.judge');
    const symbols = await until('document symbols', () =>
      vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>('vscode.executeDocumentSymbolProvider', doc.uri).then((s) => (s?.length ? s : undefined)),
    );
    assert.deepEqual(symbols.map((s) => s.name), ['hhh (pairwise)', 'System', 'Criteria', 'Rubric', 'Evaluation steps', 'Task']);
    const rubric = symbols.find((s) => s.name === 'Rubric');
    assert.equal(rubric?.kind, vscode.SymbolKind.Namespace);
    assert.deepEqual(rubric?.children.map((c) => [c.name.split(' ')[0], c.kind]), ['7', '6', '5', '4', '3', '2', '1'].map((n) => [n, vscode.SymbolKind.EnumMember]));
  });

  it('reports no diagnostics for a freshly opened hhh.judge', async () => {
    const doc = await openJudge('hhh.judge');
    // The outline answering means the extension is up; it validates open documents when it starts.
    await vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', doc.uri);
    assert.deepEqual(judgeDiagnostics(doc.uri).map((d) => `${codeOf(d)}: ${d.message}`), []);
  });

  it('reports missing-section on the first body line when the Rubric heading is deleted, and its quick fix restores the heading', async () => {
    const doc = await openJudge('hhh.judge');
    const original = doc.getText();
    const line = original.split('\n').indexOf('# Rubric');
    assert.ok(line > 0);
    const edit = new vscode.WorkspaceEdit();
    edit.delete(doc.uri, new vscode.Range(line, 0, line + 1, 0));
    await vscode.workspace.applyEdit(edit);
    try {
      const all = await diagnosticsWhere(doc.uri, 'missing-section', (ds) => ds.some((x) => codeOf(x) === 'missing-section'));
      assert.deepEqual(all.map(codeOf), ['missing-section']);
      const d = all[0];
      assert.ok(d);
      assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
      assert.match(d.message, /needs a `# Rubric` section/);
      // The whole-template finding sits on the first line after the front matter (line 19).
      assert.deepEqual([d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character], [18, 0, 18, 0]);

      const fixes = await quickFixes(doc, d.range);
      const fix = fixes.find((f) => f.isPreferred);
      assert.ok(fix?.edit, `no preferred quick fix among: ${fixes.map((f) => f.title).join(' | ')}`);
      assert.match(fix.title, /^Add the `# Rubric` heading above the score lines/);
      assert.ok(await vscode.workspace.applyEdit(fix.edit));
      assert.equal(doc.getText(), original);
      await diagnosticsWhere(doc.uri, 'no diagnostics after the fix', (ds) => ds.length === 0);
    } finally {
      if (doc.getText() !== original) await setText(doc, original);
    }
  });

  it('offers the declared inputs and the dataset columns after {{', async () => {
    const doc = await openJudge('helpfulness.judge');
    const original = doc.getText();
    const end = doc.lineAt(doc.lineCount - 1).range.end;
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, end, '\n{{');
    await vscode.workspace.applyEdit(edit);
    try {
      const at = doc.lineAt(doc.lineCount - 1).range.end;
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, at, '{');
      const items = new Map(list.items.map((i) => [typeof i.label === 'string' ? i.label : i.label.label, i]));
      for (const name of ['prompt', 'response', 'reference', 'id']) assert.ok(items.has(name), `${name} missing from ${[...items.keys()].join(', ')}`);
      assert.equal(items.get('prompt')?.detail, 'declared input · standard pointwise field · in the dataset');
      assert.match(items.get('id')?.detail ?? '', /dataset column, not declared/);
    } finally {
      await setText(doc, original);
    }
  });

  it('replaces an unknown placeholder with the suggested field through its quick fix', async () => {
    const doc = await openJudge('helpfulness.judge');
    const original = doc.getText();
    await setText(doc, original.replace('{{response}}', '{{respnse}}'));
    try {
      const all = await diagnosticsWhere(doc.uri, 'unknown-placeholder', (ds) => ds.some((x) => codeOf(x) === 'unknown-placeholder'));
      // The rename also leaves `response` unused in `inputs` and the response unseen: three findings.
      assert.deepEqual(all.map(codeOf).sort(), ['missing-placeholder', 'unknown-placeholder', 'unused-input']);
      assert.deepEqual(all.find((x) => codeOf(x) === 'unused-input')?.tags, [vscode.DiagnosticTag.Unnecessary]);
      const d = all.find((x) => codeOf(x) === 'unknown-placeholder');
      assert.ok(d);
      assert.equal(doc.getText(d.range), 'respnse');
      const fix = (await quickFixes(doc, d.range)).find((f) => f.title === 'Change to `response`');
      assert.ok(fix?.edit && fix.isPreferred);
      assert.ok(await vscode.workspace.applyEdit(fix.edit));
      assert.equal(doc.getText(), original);
      await diagnosticsWhere(doc.uri, 'no diagnostics after the fix', (ds) => ds.length === 0);
    } finally {
      if (doc.getText() !== original) await setText(doc, original);
    }
  });

  it('shows where a placeholder comes from and its value in row 1 on hover', async () => {
    const doc = await openJudge('helpfulness.judge');
    const at = doc.positionAt(doc.getText().indexOf('{{prompt}}') + 4);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at);
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /declared in `inputs`/);
    assert.match(text, /How many days are in a leap year\?/);
  });

  it('clears the diagnostics when a document stops being a judge template', async () => {
    const doc = await openJudge('helpfulness.judge');
    const original = doc.getText();
    await setText(doc, original.replace('# Criteria', '# Criterion'));
    try {
      await diagnosticsWhere(doc.uri, 'missing-section', (ds) => ds.some((x) => codeOf(x) === 'missing-section'));
      const plain = await vscode.languages.setTextDocumentLanguage(doc, 'plaintext');
      await diagnosticsWhere(plain.uri, 'the diagnostics to be cleared', (ds) => ds.length === 0);
      const judge = await vscode.languages.setTextDocumentLanguage(plain, 'judge');
      await diagnosticsWhere(judge.uri, 'missing-section again', (ds) => ds.some((x) => codeOf(x) === 'missing-section'));
      await setText(judge, original);
      await diagnosticsWhere(judge.uri, 'no diagnostics once the heading is back', (ds) => ds.length === 0);
    } finally {
      const current = vscode.workspace.textDocuments.find((d) => d.uri.toString() === doc.uri.toString());
      if (current && current.getText() !== original) await setText(current, original);
    }
  });
});
