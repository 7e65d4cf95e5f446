// Placeholders come from Handlebars' own AST, so what we check is exactly what will be rendered.
import Handlebars from 'handlebars';
import type { Diagnostic } from '../diagnostics';
import type { LineIndex } from '../text';
import type { Placeholder, Section } from './types';

type HbNode = hbs.AST.Node & { loc: hbs.AST.SourceLocation };

/** Helpers Handlebars ships; anything else called with parameters is unknown. */
export const BUILTIN_HELPERS = new Set(['if', 'unless', 'each', 'with', 'lookup', 'log']);
/** Block helpers that change the context, so paths inside are relative to the block's item. */
const CONTEXT_HELPERS = new Set(['each', 'with']);

export interface PlaceholderScan {
  ok: boolean;
  placeholders: Placeholder[];
  diagnostics: Diagnostic[];
  /** Helpers used in the body that Handlebars does not ship. */
  unknownHelpers: { name: string; start: number; end: number }[];
}

/**
 * Scan the body as the renderer compiles it: the System section's text apart from the rest, so a
 * block or comment that crosses its boundary is reported. Each part keeps document offsets, with
 * the other part blanked out (line breaks kept).
 */
export function scanBody(text: string, bodyStart: number, sections: Section[], index: LineIndex): PlaceholderScan {
  const body = text.slice(bodyStart);
  const system = sections.find((s) => s.key === 'system');
  if (!system) return scanPlaceholders(body, bodyStart, index);
  const blank = (s: string) => s.replace(/[^\r\n]/g, ' ');
  const [head, from, to] = [system.headingStart - bodyStart, system.bodyStart - bodyStart, system.bodyEnd - bodyStart];
  // Joined, not concatenated: a rope string costs every later character read (the scans, the lexer).
  const parts = [
    scanPlaceholders([blank(body.slice(0, from)), body.slice(from, to)].join(''), bodyStart, index),
    scanPlaceholders([body.slice(0, head), blank(body.slice(head, to)), body.slice(to)].join(''), bodyStart, index),
  ];
  return {
    ok: parts.every((p) => p.ok),
    placeholders: parts.flatMap((p) => p.placeholders).sort((a, b) => a.start - b.start),
    diagnostics: parts.flatMap((p) => p.diagnostics),
    unknownHelpers: parts.flatMap((p) => p.unknownHelpers),
  };
}

/** Parse `source` (which starts at document offset `base`) and list every placeholder path. */
export function scanPlaceholders(source: string, base: number, index: LineIndex): PlaceholderScan {
  const diagnostics: Diagnostic[] = [];
  let ast: hbs.AST.Program;
  const deep = tooDeep(source);
  if (deep) {
    diagnostics.push({
      ...index.span(base + deep.offset, base + deep.offset + deep.length),
      severity: 'error',
      code: 'handlebars-syntax',
      message: `Blocks are nested more than ${MAX_BLOCK_DEPTH} deep here; close the \`{{#…}}\` blocks opened above with their \`{{/…}}\` tags.`,
    });
    return { ok: false, placeholders: [], diagnostics, unknownHelpers: [] };
  }
  try {
    // Handlebars' lexer computes columns with `.`, which stops at U+2028/U+2029, so those shift every
    // later position on the line; as spaces they tokenize the same (both are \s) and keep the offsets.
    ast = parseHandlebars(source.replace(/[\u2028\u2029]/g, ' '));
  } catch (e) {
    diagnostics.push(syntaxDiagnostic(e, source, base, index));
    return { ok: false, placeholders: [], diagnostics, unknownHelpers: [] };
  }
  const baseLine = index.position(base);
  const toOffset = (pos: hbs.AST.Position): number => {
    // Handlebars lines are 1-based, columns 0-based, relative to `source`.
    if (pos.line === 1) return base + pos.column;
    return index.lineStart(baseLine.line + pos.line - 1) + pos.column;
  };
  const placeholders: Placeholder[] = [];
  const unknownHelpers: PlaceholderScan['unknownHelpers'] = [];
  const addPath = (node: hbs.AST.Expression, kind: Placeholder['kind'], inBlock: boolean) => {
    if (node.type !== 'PathExpression') {
      if (node.type === 'SubExpression') visitCall(node as hbs.AST.SubExpression, inBlock);
      return;
    }
    const path = node as hbs.AST.PathExpression & HbNode;
    if (path.data) return; // @index, @key, @root… are Handlebars' own
    const start = toOffset(path.loc.start);
    const end = toOffset(path.loc.end);
    const relative = path.depth > 0 || path.original.startsWith('this') || path.original.startsWith('.');
    placeholders.push({
      path: path.original,
      head: relative ? '' : (path.parts[0] ?? ''),
      kind,
      inBlock: inBlock || relative,
      span: index.span(start, end),
      start,
      end,
    });
  };
  const visitCall = (node: hbs.AST.MustacheStatement | hbs.AST.SubExpression | hbs.AST.BlockStatement, inBlock: boolean) => {
    const hasArgs = node.params.length > 0 || (node.hash?.pairs.length ?? 0) > 0;
    if (!hasArgs && node.type === 'MustacheStatement') {
      addPath(node.path, 'mustache', inBlock);
      return;
    }
    if (node.path.type === 'PathExpression') {
      const name = (node.path as hbs.AST.PathExpression).original;
      if (!BUILTIN_HELPERS.has(name)) {
        const loc = (node.path as HbNode).loc;
        unknownHelpers.push({ name, start: toOffset(loc.start), end: toOffset(loc.end) });
      }
    }
    const kind = node.type === 'BlockStatement' ? 'block' : 'mustache';
    for (const p of node.params) addPath(p, kind, inBlock);
    for (const pair of node.hash?.pairs ?? []) addPath(pair.value, kind, inBlock);
  };
  const visit = (program: hbs.AST.Program | undefined, inBlock: boolean) => {
    for (const stmt of program?.body ?? []) {
      if (stmt.type === 'MustacheStatement') visitCall(stmt as hbs.AST.MustacheStatement, inBlock);
      else if (stmt.type === 'BlockStatement' || stmt.type === 'DecoratorBlock') {
        const block = stmt as hbs.AST.BlockStatement;
        visitCall(block, inBlock);
        const name = block.path.type === 'PathExpression' ? (block.path as hbs.AST.PathExpression).original : '';
        visit(block.program, inBlock || CONTEXT_HELPERS.has(name));
        visit(block.inverse, inBlock);
      } else if (stmt.type === 'PartialStatement' || stmt.type === 'PartialBlockStatement') {
        const loc = (stmt as HbNode).loc;
        diagnostics.push({
          ...index.span(toOffset(loc.start), toOffset(loc.end)),
          severity: 'error',
          code: 'handlebars-syntax',
          message: 'Partials (`{{> name}}`) are not supported in judge templates; write the text in place.',
        });
      }
    }
  };
  visit(ast, false);
  return { ok: true, placeholders, diagnostics, unknownHelpers };
}

/** Deeper nesting than this is never a real template, and Handlebars' parser is quadratic in depth. */
export const MAX_BLOCK_DEPTH = 64;

interface JisonLoc {
  first_line: number;
  first_column: number;
  last_line: number;
  last_column: number;
}

interface JisonLexer {
  yylloc?: JisonLoc;
  _input?: string;
}

/** Handlebars.parse, with where the parser stopped kept (its message alone has no usable column). */
export function parseHandlebars(source: string): hbs.AST.Program {
  const parser = (Handlebars as unknown as { Parser: { parseError: (s: string, h: unknown) => never; lexer: JisonLexer } }).Parser;
  const original = parser.parseError;
  parser.parseError = (message: string, hash: unknown) => {
    // Parse errors: the lexer's location is the unexpected token's. Lexical errors: the unread input starts at the bad text.
    const lexer = parser.lexer;
    const at = (hash as JisonHash | undefined)?.loc ? { loc: lexer.yylloc ? { ...lexer.yylloc } : undefined } : { offset: source.length - (lexer._input?.length ?? 0) };
    throw Object.assign(new Error(message), { hash, at });
  };
  try {
    // Without the whitespace-control pass (Handlebars.parse's second step): it only trims text
    // between tags, and the tags, their paths and positions are all that is read here.
    return Handlebars.parseWithoutProcessing(source);
  } finally {
    parser.parseError = original;
  }
}

interface JisonHash {
  token?: string | null;
  text?: string;
  loc?: JisonLoc;
}

function syntaxDiagnostic(e: unknown, source: string, base: number, index: LineIndex): Diagnostic {
  const err = e as Error & { hash?: JisonHash; at?: { loc?: JisonLoc; offset?: number }; lineNumber?: number; column?: number };
  const baseLine = index.position(base).line;
  const at = (line: number, column: number) => (line === 1 ? base + column : index.lineStart(baseLine + line - 1) + column);
  const detail = (err.message ?? String(e)).split('\n').pop() ?? '';
  const diag = (start: number, end: number, message: string): Diagnostic => ({ ...index.span(start, end), severity: 'error', code: 'handlebars-syntax', message });
  if (err.hash?.token === 'EOF') {
    const open = unclosedBlock(source);
    if (open) {
      const start = base + open.offset;
      return diag(start, start + open.length, `\`{{#${open.name}}}\` is never closed; add \`{{/${open.name}}}\` where the block ends.`);
    }
  }
  if (err.at?.offset !== undefined) {
    const start = base + err.at.offset;
    if (source.startsWith('{{!--', err.at.offset)) return diag(start, start + 5, 'This `{{!--` comment is never closed; end it with `--}}`.');
    const code = source.charCodeAt(err.at.offset);
    const what = code === 0 ? 'a NUL character' : `\`${source.charAt(err.at.offset)}\``;
    return diag(start, start + 1, `Handlebars cannot read ${what} here; delete it${code === 0 ? ' (a template is text, not binary data)' : ''}.`);
  }
  const loc = err.at?.loc ?? err.hash?.loc;
  if (loc) {
    const start = at(loc.first_line, loc.first_column);
    const end = Math.max(start + 1, at(loc.last_line, loc.last_column));
    const got = err.hash?.token === 'EOF' ? 'the end of the template' : `\`${err.hash?.text ?? ''}\``;
    return diag(start, end, `Handlebars did not expect ${got} here; check the \`{{…}}\` tags and block names around it.`);
  }
  if (typeof err.lineNumber === 'number') {
    const start = at(err.lineNumber, err.column ?? 0);
    return diag(start, start + 1, `${detail.replace(/ - \d+:\d+$/, '')}: each \`{{#name}}\` block must close with the same \`{{/name}}\`.`);
  }
  return diag(base, base, `Handlebars cannot parse the body: ${detail}`);
}

/**
 * The first block tag opened deeper than MAX_BLOCK_DEPTH, by a plain scan of `{{#x` / `{{^x` / `{{/x`:
 * what `/\{\{~?\s*([#/^])\s*(\}?)[^}]*\}?\}?/g` matches, found with indexOf (run on every validation).
 */
export function tooDeep(source: string): { offset: number; length: number } | undefined {
  let depth = 0;
  const n = source.length;
  for (let at = source.indexOf('{{'); at >= 0; ) {
    let p = at + 2;
    if (source.charCodeAt(p) === 0x7e) p++; // ~
    while (p < n && isSpace(source.charCodeAt(p))) p++;
    const sigil = source[p];
    if (sigil !== '#' && sigil !== '/' && sigil !== '^') {
      at = source.indexOf('{{', at + 1);
      continue;
    }
    p++;
    while (p < n && isSpace(source.charCodeAt(p))) p++;
    const brace = source[p] === '}';
    if (brace) p++;
    const close = source.indexOf('}', p);
    p = close < 0 ? n : close;
    if (source[p] === '}') p++;
    if (source[p] === '}') p++;
    if (sigil === '/') depth = Math.max(0, depth - 1);
    else if (!(sigil === '^' && brace)) {
      // `{{^}}` is an else, not an opening tag.
      if (++depth > MAX_BLOCK_DEPTH) return { offset: at, length: p - at };
    }
    at = source.indexOf('{{', p);
  }
  return undefined;
}

const SPACE = /\s/;

/** What `\s` matches in a regular expression. */
function isSpace(c: number): boolean {
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return true;
  return c > 0x7f && SPACE.test(String.fromCharCode(c));
}

/** The innermost block left open at the end of `source`, by a plain scan of `{{#x` / `{{/x`. */
function unclosedBlock(source: string): { name: string; offset: number; length: number } | undefined {
  const stack: { name: string; offset: number; length: number }[] = [];
  const re = /\{\{~?\s*([#/^])\s*([\w.-]+)[^}]*\}?\}?/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    const [whole, sigil, name] = m;
    if (!name) continue;
    if (sigil === '/') {
      const i = stack.map((s) => s.name).lastIndexOf(name);
      if (i >= 0) stack.length = i;
    } else stack.push({ name, offset: m.index, length: whole.length });
  }
  return stack.pop();
}
