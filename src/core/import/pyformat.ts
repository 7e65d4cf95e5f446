// Python `str.format` templates (FastChat's judge prompts) as Handlebars bodies that render to the
// same text. Parsing follows CPython's rules: `{{` and `}}` are literal braces, a lone `}` is an
// error, `{name}` is a field. Only plain keyword fields are supported (what `format(**row)` uses);
// conversions, format specs, attributes and positional fields are reported, never approximated.

export type FormatPiece = { text: string } | { field: string };

export type FormatParse = { ok: true; pieces: FormatPiece[]; fields: string[] } | { ok: false; error: string };

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Names Handlebars reads as literals or built-in helpers, never as a field. */
const RESERVED = new Set(['this', 'true', 'false', 'null', 'undefined', 'else', 'if', 'unless', 'each', 'with', 'lookup', 'log', 'helperMissing', 'blockHelperMissing']);

export function parsePythonFormat(template: string): FormatParse {
  const pieces: FormatPiece[] = [];
  const fields: string[] = [];
  let text = '';
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if (c === '{' && template[i + 1] === '{') {
      text += '{';
      i += 2;
    } else if (c === '}' && template[i + 1] === '}') {
      text += '}';
      i += 2;
    } else if (c === '}') {
      return { ok: false, error: `Single '}' encountered in format string (at character ${i + 1})` };
    } else if (c === '{') {
      const end = fieldEnd(template, i);
      if (end < 0) return { ok: false, error: `expected '}' before end of string (the field opened at character ${i + 1})` };
      const inner = template.slice(i + 1, end);
      const name = inner.endsWith('!s') ? inner.slice(0, -2) : inner; // !s is str(), what format does anyway
      if (!IDENT.test(name) || RESERVED.has(name)) {
        return { ok: false, error: `the field {${inner}} is not a plain keyword field (a conversion, format spec, attribute, index or positional field cannot be reproduced by a placeholder)` };
      }
      if (text) pieces.push({ text });
      text = '';
      pieces.push({ field: name });
      if (!fields.includes(name)) fields.push(name);
      i = end + 1;
    } else {
      text += c;
      i++;
    }
  }
  if (text) pieces.push({ text });
  return { ok: true, pieces, fields };
}

/** The `}` that closes the field opened at `open`, with nested braces counted (as CPython does). */
function fieldEnd(s: string, open: number): number {
  let depth = 1;
  for (let i = open + 1; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** Python's `template.format(**row)` for plain keyword fields (the reference for tests and previews). */
export function formatPython(pieces: FormatPiece[], row: Record<string, string>): string {
  return pieces.map((p) => ('text' in p ? p.text : row[p.field] ?? '')).join('');
}

// ---- Handlebars escaping ----

/** A literal `{` or `}` where Handlebars would misread it: a block that prints the character. */
const LITERAL = (c: '{' | '}') => `{{#with "${c}"}}{{this}}{{/with}}`;

type Atom = { kind: 'char'; c: string } | { kind: 'field'; name: string };

/**
 * Handlebars source that renders the pieces verbatim. Handlebars only reads `{{`, so most text is
 * copied: a `{` is printed by a block when a `{{` would follow it (`{{{` opens a triple-stash),
 * a `}` when it directly follows a tag (`}}}` closes one), and backslashes before a tag get one more
 * (`\{{` escapes the tag, `\\{{` prints one backslash).
 */
export function handlebarsBody(pieces: FormatPiece[]): { ok: true; source: string } | { ok: false; error: string } {
  const atoms: Atom[] = [];
  for (const p of pieces) {
    if ('field' in p) atoms.push({ kind: 'field', name: p.field });
    else for (const c of p.text) atoms.push({ kind: 'char', c });
  }
  if (atoms.some((a) => a.kind === 'char' && a.c === '\0')) return { ok: false, error: 'the template holds a NUL character, which Handlebars cannot read' };
  // Right to left: whether each atom's emitted text starts with "{".
  const out: string[] = new Array<string>(atoms.length);
  let nextStartsBrace = false;
  for (let i = atoms.length - 1; i >= 0; i--) {
    const a = atoms[i]!;
    if (a.kind === 'field') {
      out[i] = `{{${a.name}}}`;
      nextStartsBrace = true;
    } else if (a.c === '{') {
      out[i] = nextStartsBrace ? LITERAL('{') : '{';
      nextStartsBrace = true;
    } else {
      out[i] = a.c;
      nextStartsBrace = false;
    }
  }
  // Left to right: a "}" right after a tag would extend its closing "}}".
  let afterTag = false;
  for (let i = 0; i < atoms.length; i++) {
    const a = atoms[i]!;
    if (a.kind === 'char' && a.c === '}' && afterTag) out[i] = LITERAL('}');
    afterTag = out[i]!.endsWith('}}');
  }
  // Backslashes right before a tag: Handlebars drops one of them, so add one.
  for (let i = 0; i < atoms.length; i++) {
    if (!out[i]!.startsWith('{{') || i === 0) continue;
    const prev = atoms[i - 1]!;
    if (prev.kind === 'char' && prev.c === '\\') out[i - 1] = '\\\\';
  }
  return { ok: true, source: out.join('') };
}
