// Nunjucks prompts (promptfoo's grading prompts) as Handlebars: `{{ name }}` becomes a placeholder
// or a value fixed at import time; any other tag (`{% … %}`, filters, `{# … #}`) is reported.
import type { FormatPiece } from './pyformat';

/** A variable's meaning in the judge template: a dataset field, or literal pieces (e.g. the rubric). */
export type VariableMapping = (name: string) => { field: string } | { pieces: FormatPiece[] };

export type NunjucksParse = { ok: true; pieces: FormatPiece[] } | { ok: false; error: string };

const VAR = /\{\{-?\s*([A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}/y;

export function parseNunjucks(text: string, map: VariableMapping): NunjucksParse {
  const pieces: FormatPiece[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    const open = text.slice(i, i + 2);
    if (open === '{{' || open === '{%' || open === '{#') {
      VAR.lastIndex = i;
      const m = open === '{{' ? VAR.exec(text) : null;
      if (!m || m[1] === undefined) {
        const end = text.indexOf(open === '{{' ? '}}' : open === '{%' ? '%}' : '#}', i);
        const tag = text.slice(i, end < 0 ? Math.min(text.length, i + 40) : end + 2);
        return { ok: false, error: `the tag ${tag} is more than a plain {{ variable }}; Judge Studio templates cannot reproduce Nunjucks logic or filters` };
      }
      if (m[0].includes('{{-') || m[0].includes('-}}')) return { ok: false, error: `whitespace control in ${m[0]} is not supported` };
      if (literal) pieces.push({ text: literal });
      literal = '';
      const meaning = map(m[1]);
      if ('field' in meaning) pieces.push({ field: meaning.field });
      else pieces.push(...meaning.pieces);
      i += m[0].length;
    } else {
      literal += text[i];
      i++;
    }
  }
  if (literal) pieces.push({ text: literal });
  return { ok: true, pieces: merge(pieces) };
}

/** Adjacent text pieces joined (an inserted literal next to text). */
function merge(pieces: FormatPiece[]): FormatPiece[] {
  const out: FormatPiece[] = [];
  for (const p of pieces) {
    const last = out[out.length - 1];
    if ('text' in p && last && 'text' in last) out[out.length - 1] = { text: last.text + p.text };
    else out.push(p);
  }
  return out;
}

/** The fields the pieces read, in first-use order. */
export function fieldsOf(pieces: FormatPiece[]): string[] {
  const out: string[] = [];
  for (const p of pieces) if ('field' in p && !out.includes(p.field)) out.push(p.field);
  return out;
}
