// The held-out guard: no text of a held-out row may reach a candidate, or the held-out figures
// would measure memory, not judgment. Text "quotes" a held-out row when it shares a run of
// QUOTE_WORDS consecutive words with one of its input fields (words compared in lower case,
// punctuation ignored; each Han or kana character counts as a word, since those scripts do not
// space words), or contains a whole held-out field shorter than that run but at least
// QUOTE_MIN_CHARS long. Text that also occurs in a train row or in the template is not the
// held-out rows' own (a shared instruction, the same question asked of two responses), so it
// does not count. Words are compared as a reader sees them (security/skeleton.ts): a soft hyphen,
// a zero-width space or a Cyrillic look-alike letter hides nothing.
import { readerSkeleton } from '../security/skeleton';
import type { LabelledRow } from './types';

export const QUOTE_WORDS = 8;
export const QUOTE_MIN_CHARS = 24;
/** Fields are read up to this length: enough to catch a quote, bounded for hostile data. */
const MAX_FIELD = 200_000;

const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+/gu;

export function words(text: string): string[] {
  return (readerSkeleton(text.slice(0, MAX_FIELD)).toLowerCase().match(WORD) ?? []) as string[];
}

function fieldText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') return undefined;
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function runsOf(w: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + QUOTE_WORDS <= w.length; i++) out.push(w.slice(i, i + QUOTE_WORDS).join(' '));
  return out;
}

export interface Quote {
  /** The held-out row quoted. */
  key: string;
  field: string;
  /** The shared words, for the message. */
  excerpt: string;
}

export class HeldOutGuard {
  /** Word runs of length QUOTE_WORDS found only in held-out rows → where they come from. */
  private readonly runs = new Map<string, { key: string; field: string }>();
  /** Held-out fields shorter than a run, as word sequences. */
  private readonly short: { text: string; key: string; field: string }[] = [];

  /** `shared`: texts whose words are not the held-out rows' own (the train rows' fields, the template). */
  constructor(heldout: readonly LabelledRow[], train: readonly LabelledRow[], fields: readonly string[], shared: readonly string[] = []) {
    const texts = (rows: readonly LabelledRow[]) => rows.flatMap((r) => fields.flatMap((f) => {
      const t = fieldText(r.record[f]);
      return t === undefined ? [] : [{ key: r.key, field: f, words: words(t) }];
    }));
    const common = new Set<string>();
    const commonText: string[] = [];
    for (const t of [...texts(train), ...shared.map((s) => ({ key: '', field: '', words: words(s) }))]) {
      for (const run of runsOf(t.words)) common.add(run);
      commonText.push(t.words.join(' '));
    }
    const joined = ` ${commonText.join(' | ')} `;
    for (const t of texts(heldout)) {
      if (t.words.length >= QUOTE_WORDS) {
        for (const run of runsOf(t.words)) if (!common.has(run) && !this.runs.has(run)) this.runs.set(run, { key: t.key, field: t.field });
      } else {
        const text = t.words.join(' ');
        if (text.length >= QUOTE_MIN_CHARS && !joined.includes(` ${text} `)) this.short.push({ text, key: t.key, field: t.field });
      }
    }
  }

  /** The first held-out quote in `text`, or undefined. */
  quote(text: string): Quote | undefined {
    const w = words(text);
    for (const run of runsOf(w)) {
      const from = this.runs.get(run);
      if (from) return { ...from, excerpt: run };
    }
    if (this.short.length > 0) {
      const joined = ` ${w.join(' ')} `;
      for (const s of this.short) if (joined.includes(` ${s.text} `)) return { key: s.key, field: s.field, excerpt: s.text };
    }
    return undefined;
  }
}

export function describeQuote(q: Quote): string {
  const shown = q.excerpt.length > 80 ? `${q.excerpt.slice(0, 77)}...` : q.excerpt;
  return `it quotes the "${q.field}" of held-out row ${q.key} ("${shown}")`;
}
