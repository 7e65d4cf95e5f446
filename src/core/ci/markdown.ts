// GitHub-flavoured Markdown for job summaries. Dataset strings (file names, labels, metric names)
// are hostile: in a cell a pipe would split the row, a line break end the table, and `<`, `[` or
// `*` turn text into HTML, links or emphasis. Every string goes through `mdText` or `mdCell`.

const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** Inline text on one line: Markdown punctuation backslash-escaped, HTML characters as entities, control characters dropped. */
export function mdText(text: string): string {
  return text
    .replace(/\r\n|[\r\n\u2028\u2029]/g, ' ')
    .replace(FORBIDDEN, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_{}[\]()#+\-.!|~]/g, (c) => `\\${c}`);
}

/** A table cell: inline text, trimmed (line breaks are spaces, so the row holds). */
export function mdCell(text: string): string {
  return mdText(text).trim();
}

/** A table whose cells are already escaped (`mdCell`), so numbers and marks can be written as they are. */
export function mdTable(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n') + '\n';
}

/** Text shown as it is: a fence longer than any run of backticks in it, so nothing inside can close it. */
export function mdCodeBlock(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text.replace(FORBIDDEN, '').replace(/\n?$/, '\n')}${fence}\n`;
}
