// Hover: placeholders (origin and value in the chosen row), rubric points, front-matter keys.
import * as vscode from 'vscode';
import { LANGUAGE_ID, type Studio } from '../studio';
import { offsetRange } from './convert';
import { hoverAt } from './model/hover';
import { NO_SAMPLE } from './model/edits';

export function registerHover(studio: Studio): void {
  const provider: vscode.HoverProvider = {
    async provideHover(doc, position, token) {
      const t = studio.template(doc);
      const offset = doc.offsetAt(position);
      const onPlaceholder = t.placeholders.some((p) => p.start <= offset && offset <= p.end);
      const sample = onPlaceholder ? await studio.samples.view(doc.uri) : NO_SAMPLE;
      if (token.isCancellationRequested) return undefined;
      const info = hoverAt(t, offset, sample);
      if (!info) return undefined;
      const md = new vscode.MarkdownString();
      info.parts.forEach((part, i) => {
        if (i > 0 && !('code' in part)) md.appendMarkdown('\n\n');
        if ('md' in part) md.appendMarkdown(part.md);
        else if ('text' in part) md.appendText(part.text);
        else md.appendCodeblock(part.code, 'text');
      });
      return new vscode.Hover(md, offsetRange(doc, info.start, info.end));
    },
  };
  studio.push(vscode.languages.registerHoverProvider({ language: LANGUAGE_ID }, provider));
}
