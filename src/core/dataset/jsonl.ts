// JSON Lines: one object per line. Blank lines are not rows; a bad line is a skip that keeps its row number.
import { jsonProblem, kindOf, skip } from './messages';
import type { ChunkReader, DatasetItem } from './types';

export class JsonlReader implements ChunkReader {
  private rest = ''; // text after the last line break seen
  private line = 1; // line number of the first line in `rest`
  private row = 0;
  private afterCR = false; // the previous chunk ended in CR: a leading LF completes that break

  push(chunk: string): DatasetItem[] {
    const out: DatasetItem[] = [];
    if (chunk === '') return out;
    let from = this.afterCR && chunk.startsWith('\n') ? 1 : 0;
    this.afterCR = false;
    // LF, CRLF and a lone CR all end a line, matching how the editor numbers lines.
    const breaks = /\r\n|\r|\n/g;
    breaks.lastIndex = from;
    for (let m = breaks.exec(chunk); m !== null; m = breaks.exec(chunk)) {
      // A CR at the very end may be the first half of a CRLF split across chunks.
      if (m[0] === '\r' && m.index === chunk.length - 1) this.afterCR = true;
      this.lineItem(this.rest + chunk.slice(from, m.index), out);
      this.rest = '';
      from = m.index + m[0].length;
    }
    this.rest += chunk.slice(from);
    return out;
  }

  end(): DatasetItem[] {
    const out: DatasetItem[] = [];
    this.lineItem(this.rest, out);
    this.rest = '';
    return out;
  }

  private lineItem(text: string, out: DatasetItem[]): void {
    const line = this.line++;
    if (text.trim() === '') return;
    const row = ++this.row;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      const p = jsonProblem(e);
      const at = p.position === undefined ? '' : ` at column ${p.position + 1}`;
      out.push(skip(row, line, `invalid JSON${at} (${p.message})`));
      return;
    }
    if (kindOf(value) !== 'an object') {
      out.push(skip(row, line, `expected a JSON object such as {"prompt": "..."} but found ${kindOf(value)}`));
      return;
    }
    out.push({ row, line, record: value as Record<string, unknown> });
  }
}
