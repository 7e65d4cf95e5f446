// Placeholders come from Handlebars' own AST, so what we check is exactly what will be rendered.
import Handlebars from 'handlebars';
import type { Diagnostic } from '../diagnostics';
import type { LineIndex } from '../text';
import type { Placeholder } from './types';

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

/** Parse `source` (which starts at document offset `base`) and list every placeholder path. */
export function scanPlaceholders(source: string, base: number, index: LineIndex): PlaceholderScan {
  const diagnostics: Diagnostic[] = [];
  let ast: hbs.AST.Program;
  try {
    ast = parseHandlebars(source);
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

/** Handlebars.parse, with the parser's error location kept (its message alone has no column). */
export function parseHandlebars(source: string): hbs.AST.Program {
  const parser = (Handlebars as unknown as { Parser: { parseError: (s: string, h: unknown) => never } }).Parser;
  const original = parser.parseError;
  parser.parseError = (message: string, hash: unknown) => {
    throw Object.assign(new Error(message), { hash });
  };
  try {
    return Handlebars.parse(source);
  } finally {
    parser.parseError = original;
  }
}

interface JisonHash {
  token?: string;
  loc?: { first_line: number; first_column: number; last_line: number; last_column: number };
}

function syntaxDiagnostic(e: unknown, source: string, base: number, index: LineIndex): Diagnostic {
  const err = e as Error & { hash?: JisonHash; lineNumber?: number; column?: number };
  const baseLine = index.position(base).line;
  const at = (line: number, column: number) => (line === 1 ? base + column : index.lineStart(baseLine + line - 1) + column);
  const detail = (err.message ?? String(e)).split('\n').pop() ?? '';
  if (err.hash?.token === 'EOF') {
    const open = unclosedBlock(source);
    if (open) {
      const start = base + open.offset;
      return {
        ...index.span(start, start + open.length),
        severity: 'error',
        code: 'handlebars-syntax',
        message: `\`{{#${open.name}}}\` is never closed; add \`{{/${open.name}}}\` where the block ends.`,
      };
    }
  }
  if (err.hash?.loc) {
    const { last_line, last_column } = err.hash.loc;
    const start = at(last_line, Math.max(0, last_column - 1));
    return {
      ...index.span(start, start + 1),
      severity: 'error',
      code: 'handlebars-syntax',
      message: `Handlebars cannot parse this: ${detail}. Check the braces and block tags near here.`,
    };
  }
  if (typeof err.lineNumber === 'number') {
    const start = at(err.lineNumber, err.column ?? 0);
    return {
      ...index.span(start, start + 1),
      severity: 'error',
      code: 'handlebars-syntax',
      message: `${detail.replace(/ - \d+:\d+$/, '')}: each \`{{#name}}\` block must close with the same \`{{/name}}\`.`,
    };
  }
  return { ...index.span(base, base), severity: 'error', code: 'handlebars-syntax', message: `Handlebars cannot parse the body: ${detail}` };
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
