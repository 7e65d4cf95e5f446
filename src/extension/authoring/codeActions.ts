// Code actions that start generation: on the `# Criteria` heading (or anywhere in Criteria, Rubric
// and Evaluation steps), and as quick fixes for an empty or vague rubric level.
import * as vscode from 'vscode';
import { LANGUAGE_ID, type Studio } from '../studio';
import { codeOf } from '../language/convert';

const GENERATE_KIND = vscode.CodeActionKind.RefactorRewrite.append('generate');
const RUBRIC_CODES = new Set(['empty-rubric-level', 'rubric-vague', 'rubric-gap']);

export function registerGenerateActions(studio: Studio): void {
  const provider: vscode.CodeActionProvider = {
    provideCodeActions(doc, range, context) {
      const t = studio.template(doc);
      const start = doc.offsetAt(range.start);
      const section = t.sections.find((s) => s.headingStart <= start && start <= s.bodyEnd);
      const actions: vscode.CodeAction[] = [];
      const action = (title: string, command: string, kind: vscode.CodeActionKind, diagnostics?: vscode.Diagnostic[]) => {
        const a = new vscode.CodeAction(title, kind);
        a.command = { title, command, arguments: [doc.uri] };
        if (diagnostics) a.diagnostics = diagnostics;
        actions.push(a);
      };
      const rubricFindings = context.diagnostics.filter((d) => RUBRIC_CODES.has(codeOf(d) ?? ''));
      if (rubricFindings.length) action('Generate the rubric from the criteria…', 'judgeStudio.generateRubric', vscode.CodeActionKind.QuickFix, rubricFindings);
      if (section && ['criteria', 'rubric', 'evaluation_steps'].includes(section.key)) {
        if (!rubricFindings.length && section.key !== 'evaluation_steps' && (t.config?.scale ?? t.config?.ranking)) action('Generate the rubric from the criteria…', 'judgeStudio.generateRubric', GENERATE_KIND);
        if (section.key !== 'rubric') action('Generate evaluation steps from the criteria…', 'judgeStudio.generateSteps', GENERATE_KIND);
      }
      return actions;
    },
  };
  studio.push(vscode.languages.registerCodeActionsProvider({ language: LANGUAGE_ID }, provider, { providedCodeActionKinds: [GENERATE_KIND, vscode.CodeActionKind.QuickFix] }));
}
