// Completion: placeholders after `{{` (and `.` for nested fields), section names after `# `,
// front-matter keys and values.
import * as vscode from 'vscode';
import { LANGUAGE_ID, type Studio } from '../studio';
import { offsetRange } from './convert';
import { completionsAt, emptyFileEntries, isNewFile, type CompletionEntry, type EntryKind, type SnippetDef } from './model/completion';
import { cursorContext } from './model/cursor';
import { NO_SAMPLE } from './model/edits';

const KIND: Record<EntryKind, vscode.CompletionItemKind> = {
  field: vscode.CompletionItemKind.Field,
  property: vscode.CompletionItemKind.Property,
  helper: vscode.CompletionItemKind.Keyword,
  section: vscode.CompletionItemKind.Module,
  key: vscode.CompletionItemKind.Property,
  value: vscode.CompletionItemKind.Value,
};

/** Typing one of these characters asks for completion only where it starts something we complete. */
const TRIGGERED: Record<string, RegExp> = {
  '{': /\{\{$/,
  '.': /\{\{[^}]*\.$/,
  '#': /\{\{~?\s*#$/,
  ' ': /^#[ \t]$|^\s*[A-Za-z_]\w*:[ \t]$|\{\{~?\s*#\w+[ \t]$/,
};

export function registerCompletion(studio: Studio): void {
  let snippets: Promise<Record<string, SnippetDef>> | undefined;
  const readSnippets = () =>
    (snippets ??= Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.joinPath(studio.context.extensionUri, 'snippets', 'judge.code-snippets')))
      .then((bytes) => JSON.parse(new TextDecoder('utf-8').decode(bytes)) as Record<string, SnippetDef>)
      .catch((e: unknown) => {
        studio.log.warn('the template snippets could not be read', e);
        return {};
      }));
  const provider: vscode.CompletionItemProvider = {
    async provideCompletionItems(doc, position, token, context) {
      const prefix = doc.lineAt(position.line).text.slice(0, position.character);
      if (context.triggerKind === vscode.CompletionTriggerKind.TriggerCharacter && !TRIGGERED[context.triggerCharacter ?? '']?.test(prefix)) return undefined;
      if (isNewFile(doc.getText())) {
        // A new file: the whole templates first (the contributed snippets list them again further down).
        return emptyFileEntries(doc.getText(), await readSnippets()).map((e) => {
          const item = toItem(doc, e);
          item.kind = vscode.CompletionItemKind.Snippet;
          item.insertText = new vscode.SnippetString(e.insertText);
          item.preselect = e.sortText === ' 0';
          return item;
        });
      }
      const t = studio.template(doc);
      const offset = doc.offsetAt(position);
      // Only placeholders use the dataset; do not read it for keys and headings.
      const needsSample = cursorContext(t, offset).kind === 'placeholder';
      const sample = needsSample ? await studio.samples.view(doc.uri) : NO_SAMPLE;
      if (token.isCancellationRequested) return undefined;
      return completionsAt(t, offset, sample).map((e) => toItem(doc, e));
    },
  };
  studio.push(vscode.languages.registerCompletionItemProvider({ language: LANGUAGE_ID }, provider, '{', '.', '#', ' '));
}

function toItem(doc: vscode.TextDocument, e: CompletionEntry): vscode.CompletionItem {
  const item = new vscode.CompletionItem(e.label, KIND[e.kind]);
  item.detail = e.detail;
  item.insertText = e.insertText;
  item.sortText = e.sortText;
  item.range = offsetRange(doc, e.start, e.end);
  if (e.doc || e.value !== undefined) {
    const md = new vscode.MarkdownString();
    if (e.doc) md.appendMarkdown(e.doc);
    if (e.value !== undefined) {
      md.appendMarkdown(`${e.doc ? '\n\n' : ''}In the chosen row:`);
      md.appendCodeblock(e.value, 'text');
    }
    item.documentation = md;
  }
  if (e.additionalEdits) item.additionalTextEdits = e.additionalEdits.map((x) => vscode.TextEdit.replace(offsetRange(doc, x.start, x.end), x.newText));
  // Keys end with ': ' and sections are whole titles: re-open the list for the value when useful.
  if (e.kind === 'key' && (e.label === 'kind' || e.label === 'swap')) item.command = { command: 'editor.action.triggerSuggest', title: 'Suggest values' };
  return item;
}
