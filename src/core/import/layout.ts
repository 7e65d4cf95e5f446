// An imported chat prompt (a system and a user message, as pieces of text and fields) laid out as
// a free-form template body that renders to the same messages: a system message without fields
// goes to front matter verbatim; one with fields becomes a `# System` section after the user text
// (sent trimmed, so it must not start or end with white space). Only one of each fits a template.
import { fieldsOf } from './nunjucks';
import { handlebarsBody, type FormatPiece } from './pyformat';

export interface PromptPart {
  role: 'system' | 'user';
  pieces: FormatPiece[];
}

export interface BodyLayout {
  system?: string;
  body: string;
  fields: string[];
}

/**
 * `any`: refuse every level-1 heading (promptfoo's importer, whose prompts never need one);
 * `system`: refuse only a `# System` line, the one heading a free-form body reads as a section.
 */
export type HeadingRule = 'any' | 'system';

const ANY_HEADING = /^ {0,3}#(?:[ \t]|$)|^ {0,3}=+[ \t]*$/m;
const SYSTEM_HEADING = /^ {0,3}#[ \t]+system[ \t]*:?[ \t]*#*[ \t]*$/im;

export function bodyLayout(parts: readonly PromptPart[], headings: HeadingRule = 'any'): BodyLayout | string {
  const systems = parts.filter((p) => p.role === 'system');
  const users = parts.filter((p) => p.role === 'user');
  if (systems.length > 1 || users.length > 1 || parts.length === 0) return 'a template holds one system and one user message; this grading prompt has more';
  const heading = headings === 'any' ? ANY_HEADING : SYSTEM_HEADING;
  const what = headings === 'any' ? 'a level-1 Markdown heading' : 'a "# System" heading line';
  const sys = systems[0];
  const user = users[0];
  const fields = [...new Set([...fieldsOf(user?.pieces ?? []), ...fieldsOf(sys?.pieces ?? [])])];
  const hb = (pieces: FormatPiece[]) => {
    const r = handlebarsBody(pieces);
    return r.ok ? r.source : undefined;
  };
  const userText = user ? hb(user.pieces) : '';
  if (userText === undefined) return 'the prompt holds a NUL character';
  if (heading.test(userText)) return `the user message has ${what}, which a template would read as a section`;
  if (!sys || fieldsOf(sys.pieces).length === 0) {
    return { ...(sys ? { system: sys.pieces.map((p) => ('text' in p ? p.text : '')).join('') } : {}), body: userText, fields };
  }
  const sysText = hb(sys.pieces);
  if (sysText === undefined) return 'the prompt holds a NUL character';
  if (heading.test(sysText)) return `the system message has ${what}, which a template would read as a section`;
  if (sysText !== sysText.trim() || (userText !== '' && userText !== userText.trim())) {
    return 'a system message with placeholders is sent trimmed, and this one starts or ends with white space';
  }
  return { body: `${userText}${userText ? '\n\n' : ''}# System\n${sysText}`, fields };
}
