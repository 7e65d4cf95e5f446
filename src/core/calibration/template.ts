// The lines of a results file are written by one program and share their keys, in one order, with
// values of one type each. From a line the scan read, a regular expression for lines of exactly
// that shape is made (no white space, the same keys in the same order, each value by JSON's own
// grammar for its type), and a later line it matches yields its kept values from the captures in
// one native match. A line it does not match goes to the scan, so the result is the same either way.
import { LITERAL, NUMBER, STRING, type ValueType } from '../dataset/scan';
import { codePointLength } from './bias';
import { keptValue, type Column } from './columns';

// JSON's grammar, written so that no input makes the match backtrack more than linearly: a string
// is runs of plain characters between escapes ("unrolled"), a number has one way to be read.
const PLAIN = '[^"\\\\\\u0000-\\u001f]*';
const ESCAPE = '\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4})';
const JSON_STRING = `"${PLAIN}(?:${ESCAPE}${PLAIN})*"`;
const JSON_NUMBER = '-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?';
const JSON_LITERAL = '(?:true|false|null)';

/** One member of the line a template is made from. */
export interface ShapeMember {
  /** The key exactly as written between its quotes (without escapes). */
  rawKey: string;
  column: Column;
  type: ValueType;
}

interface Kept {
  column: Column;
  type: ValueType;
  /** Capture group of the value; 0 when the value is not needed (a length of a non-string). */
  group: number;
}

export class LineTemplate {
  private readonly re: RegExp;
  private readonly kept: Kept[];
  /** The kept columns in line order, for the store. */
  readonly columns: Column[];

  /** Undefined for a shape a template cannot read (a nested value, an escaped key). */
  static from(members: readonly ShapeMember[]): LineTemplate | undefined {
    if (members.some((m) => m.type !== STRING && m.type !== NUMBER && m.type !== LITERAL)) return undefined;
    return new LineTemplate(members);
  }

  private constructor(members: readonly ShapeMember[]) {
    const parts: string[] = [];
    this.kept = [];
    let group = 0;
    for (const m of members) {
      const pattern = m.type === STRING ? JSON_STRING : m.type === NUMBER ? JSON_NUMBER : JSON_LITERAL;
      const keep = m.column.keep;
      const needed = keep !== 'drop' && keep !== 'present' && !(keep === 'length' && m.type !== STRING);
      parts.push(`"${m.rawKey.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')}":${needed ? `(${pattern})` : pattern}`);
      if (keep !== 'drop') this.kept.push({ column: m.column, type: m.type, group: needed ? ++group : 0 });
    }
    this.re = new RegExp(`^\\{${parts.join(',')}\\}$`);
    this.columns = this.kept.map((k) => k.column);
  }

  /**
   * The kept values of `text` into `values` (in the order of `columns`); false when the line is
   * not of this shape. A line the match cannot finish (its stack overflowed) is not of it either.
   */
  match(text: string, values: unknown[]): boolean {
    let m: RegExpExecArray | null;
    try {
      m = this.re.exec(text);
    } catch {
      return false;
    }
    if (m === null) return false;
    for (let k = 0; k < this.kept.length; k++) {
      const { column, type, group } = this.kept[k]!;
      values[k] = group === 0 ? (column.keep === 'present' ? null : undefined) : kept(column, type, m[group]!);
    }
    return true;
  }
}

/** A captured value as the scan keeps it (slim.ts): the same value for the same text. */
function kept(column: Column, type: ValueType, text: string): unknown {
  if (type === STRING) {
    const escaped = text.includes('\\');
    if (column.keep === 'length') return codePointLength(escaped ? (JSON.parse(text) as string) : text.slice(1, -1));
    if (column.keep === 'blank' && !escaped) return keptValue('blank', text.slice(1, -1));
    // The pattern admits no control character or bare quote, so an unescaped string is its own text.
    return keptValue(column.keep, escaped ? JSON.parse(text) : text.slice(1, -1));
  }
  if (type === NUMBER) return keptValue(column.keep, Number(text));
  return keptValue(column.keep, text === 'true' ? true : text === 'false' ? false : null);
}
