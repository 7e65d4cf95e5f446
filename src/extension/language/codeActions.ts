// Quick fixes for missing-section, unknown-placeholder, rubric-gap, undelimited-input and
// verdict-before-reasoning, computed from the core diagnostic that matches the editor's (its `data` carries the facts).
import * as vscode from 'vscode';
import { LANGUAGE_ID, type Studio } from '../studio';
import { codeOf, offsetRange, toSpan } from './convert';
import { DIAGNOSTIC_SOURCE } from './diagnostics';
import { FIXABLE_CODES, fixesFor } from './model/fixes';
import { validationOf } from './validation';

export function registerCodeActions(studio: Studio): void {
  const provider: vscode.CodeActionProvider = {
    provideCodeActions(doc, _range, context) {
      const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE && FIXABLE_CODES.has(codeOf(d) ?? ''));
      if (!ours.length) return [];
      const t = studio.template(doc);
      const core = validationOf(t);
      const actions: vscode.CodeAction[] = [];
      for (const d of ours) {
        const span = toSpan(d.range);
        const code = codeOf(d);
        // Only a diagnostic that is still current: the document may have changed since it was published.
        const match = core.find((c) => c.code === code && c.line === span.line && c.column === span.column && c.endLine === span.endLine && c.endColumn === span.endColumn && c.message === d.message);
        if (!match) continue;
        for (const fix of fixesFor(t, match)) {
          const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
          action.diagnostics = [d];
          action.isPreferred = fix.preferred;
          action.edit = new vscode.WorkspaceEdit();
          for (const e of fix.edits) action.edit.replace(doc.uri, offsetRange(doc, e.start, e.end), e.newText);
          actions.push(action);
        }
      }
      return actions;
    },
  };
  studio.push(vscode.languages.registerCodeActionsProvider({ language: LANGUAGE_ID }, provider, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }));
}
