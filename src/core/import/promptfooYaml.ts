// promptfoo reads its configs with js-yaml (src/util/yamlLoad.ts: js-yaml's schema with merge keys).
// Two things it accepts that a strict YAML 1.2 reader refuses or reads differently:
// - merge keys (`<<: *defaults`), which the `yaml` library applies only with `merge: true`;
// - a quoted scalar whose continuation lines are less indented than the key they belong to, down
//   to column 0 (people paste multi-line prompts that way). js-yaml folds such lines like any other
//   continuation line: leading white space is dropped and line breaks fold.
// This module reproduces exactly that: when the strict parse stops at a quoted scalar that does not
// close, the scalar's own continuation lines are indented (white space a quoted scalar drops
// anyway, so its value is unchanged) and the text is parsed again. Nothing else is rewritten, and
// a scalar that js-yaml refuses too (a document marker inside it, no closing quote at all) stays an error.
import { parseDocument } from 'yaml';

/** A key path into the loaded value, e.g. `['tests', 0, 'assert', 1, 'value']`. */
export type YamlPath = readonly (string | number)[];

export type YamlLoad = { ok: true; value: unknown; lenient: number[]; lineAt: (path: YamlPath) => number | undefined } | { ok: false; error: string };

/** Repairs at most this many scalars; a file needing more is not what this leniency is for. */
const MAX_REPAIRS = 200;

export function loadPromptfooYaml(text: string): YamlLoad {
  let source = text.replace(/^\uFEFF/, '');
  const lenient: number[] = [];
  let firstError: string | undefined;
  for (let attempt = 0; attempt <= MAX_REPAIRS; attempt++) {
    const doc = parseDocument(source, { merge: true, prettyErrors: false, uniqueKeys: false });
    const err = doc.errors[0];
    if (!err) {
      try {
        const parsed = source;
        // The repairs only indent lines, so a line number in the parsed text is the line in the file.
        const lineAt = (p: YamlPath): number | undefined => {
          const node = doc.getIn(p, true) as { range?: [number, number, number] } | undefined;
          return node?.range ? lineOf(parsed, node.range[0]) : undefined;
        };
        return { ok: true, value: doc.toJS({ maxAliasCount: 100 }), lenient, lineAt };
      } catch (e) {
        return { ok: false, error: (e as Error).message.split('\n')[0] ?? 'unreadable YAML' };
      }
    }
    const message = `${err.message.split('\n')[0]}${lineSuffix(source, err.pos[0])}`;
    firstError ??= message;
    if (err.code !== 'MISSING_CHAR' || !/closing .?quote/i.test(err.message)) break;
    const fixed = reindentQuoted(source, err.pos[0]);
    if (!fixed || fixed.text === source) break; // nothing of js-yaml's leniency applies here
    source = fixed.text;
    lenient.push(fixed.line);
  }
  return { ok: false, error: firstError ?? 'unreadable YAML' };
}

function lineSuffix(text: string, at: number): string {
  return / at line \d+/.test(text) ? '' : ` (line ${lineOf(text, at)})`;
}

function lineOf(text: string, at: number): number {
  let line = 1;
  for (let i = 0; i < at && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The quoted scalar that opens on the line of `at` (the strict parser reports the end of that
 * line), with every continuation line indented past the opening line. Undefined when no quote
 * opens there, the scalar never closes, or a line in it is a document marker (js-yaml refuses those).
 */
export function reindentQuoted(text: string, at: number): { text: string; line: number } | undefined {
  // The strict parser may stop a few lines into the scalar (at a blank line): look back for its start.
  let lineStart = text.lastIndexOf('\n', Math.max(0, at - 1)) + 1;
  let lineEnd = text.indexOf('\n', lineStart) < 0 ? text.length : text.indexOf('\n', lineStart);
  let open = openingQuote(text, lineStart, lineEnd);
  for (let back = 0; open === undefined && lineStart > 0 && back < 1000; back++) {
    lineEnd = lineStart - 1;
    lineStart = text.lastIndexOf('\n', lineEnd - 1) + 1;
    open = openingQuote(text, lineStart, lineEnd);
  }
  if (open === undefined) return undefined;
  const quote = text[open]!;
  const indent = /^[ ]*/.exec(text.slice(lineStart, lineEnd))![0].length;
  const pad = ' '.repeat(indent + 1);
  let out = text.slice(0, open + 1);
  let i = open + 1;
  for (;;) {
    if (i >= text.length) return undefined; // never closed: js-yaml refuses it as well
    const c = text[i]!;
    if (quote === '"' && c === '\\' && text[i + 1] !== '\n') {
      out += text.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === quote) {
      if (quote === "'" && text[i + 1] === "'") {
        out += "''";
        i += 2;
        continue;
      }
      return { text: out + text.slice(i), line: lineOf(text, open) };
    }
    out += c;
    i++;
    if (c !== '\n') continue;
    // A continuation line: its leading white space is dropped by folding, so indenting it is safe.
    const rest = /^[ \t]*/.exec(text.slice(i))![0];
    const next = text.slice(i + rest.length, i + rest.length + 4);
    if (rest === '' && /^(---|\.\.\.)(\s|$)/.test(next)) return undefined;
    if (rest.length <= indent && next !== '' && next[0] !== '\n' && next[0] !== '\r') {
      out += pad;
      i += rest.length;
    }
  }
}

/**
 * The quote on the line that opens a scalar and does not close on it: after the indent, `- `,
 * `key: `, `[`, `{` or `,`. Quoted scalars that close on the line are stepped over.
 */
function openingQuote(text: string, start: number, end: number): number | undefined {
  for (let i = start; i < end; i++) {
    const c = text[i];
    if (c === '#' && (i === start || /\s/.test(text[i - 1]!))) return undefined;
    if (c !== '"' && c !== "'") continue;
    const before = text.slice(start, i).trimEnd();
    if (!(before === '' || /(^|\s)-$|:$|[[{,]$/.test(before))) return undefined;
    const close = closingOnLine(text, i, end);
    if (close === undefined) return i;
    i = close;
  }
  return undefined;
}

function closingOnLine(text: string, open: number, end: number): number | undefined {
  const quote = text[open];
  for (let i = open + 1; i < end; i++) {
    if (quote === '"' && text[i] === '\\') i++;
    else if (text[i] === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i;
    }
  }
  return undefined;
}
