// Text edits as plain offsets (the adapters turn them into VS Code edits), and the one edit both
// completion and quick fixes make in the front matter: declaring an input.
import { isScalar, isSeq, parseDocument, type Node } from 'yaml';
import type { ParsedTemplate } from '../../../core/template';
import type { DatasetRecord } from '../../../core/dataset/types';

export interface TextEditSpec {
  start: number;
  end: number;
  newText: string;
}

/** What the editor knows about the dataset row chosen for the preview. */
export interface SampleView {
  /** Columns of the chosen dataset (over its first rows). */
  columns: string[];
  /** The chosen row's record, when it is readable. */
  record?: DatasetRecord;
  row?: number;
  /** The dataset as shown to the user (workspace-relative path). */
  dataset?: string;
}

export const NO_SAMPLE: SampleView = { columns: [] };

/** Adds `name` to `inputs:` (flow or block list), or adds an `inputs:` line; undefined if it cannot. */
export function declareInputEdit(t: ParsedTemplate, name: string): TextEditSpec | undefined {
  const fm = t.frontMatter;
  if (!fm) return undefined;
  const yamlText = t.text.slice(fm.start, fm.end);
  const doc = parseDocument(yamlText);
  if (doc.errors.length) return undefined;
  const seq = doc.get('inputs', true) as Node | undefined;
  if (seq === undefined) {
    const at = fm.end;
    const prefix = at > fm.start && t.text[at - 1] !== '\n' ? '\n' : '';
    return { start: at, end: at, newText: `${prefix}inputs: [${name}]\n` };
  }
  if (!isSeq(seq) || !seq.range) return undefined;
  if (seq.items.some((i) => isScalar(i) && i.value === name)) return undefined;
  if (seq.flow) {
    const close = yamlText.lastIndexOf(']', seq.range[1]);
    if (close < 0) return undefined;
    const at = fm.start + close;
    const empty = seq.items.length === 0;
    const before = yamlText.slice(0, close).trimEnd();
    return { start: at, end: at, newText: empty || before.endsWith(',') ? name : `, ${name}` };
  }
  const last = seq.items[seq.items.length - 1] as Node | undefined;
  if (!last?.range) return undefined;
  const at = fm.start + last.range[1];
  const lineText = t.index.lineText(t.index.position(at).line);
  const dash = /^(\s*-\s*)/.exec(lineText)?.[1] ?? '  - ';
  // The scalar's range ends at its value, so the edit lands before the line break.
  const endOfLine = t.index.lineEnd(t.index.position(at).line);
  return { start: endOfLine, end: endOfLine, newText: `\n${dash}${name}` };
}
