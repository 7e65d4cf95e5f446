// FastChat's verdict rules (llm_judge/common.py), so an imported MT-Bench judge reads the same
// verdict FastChat would from the same reply:
// - single: the first `[[N]]` (N like 7, 7.5), else the first `[N]`;
// - pairwise: `[[A]]` anywhere wins, else `[[B]]`, else `[[C]]` (a tie). FastChat checks presence
//   in that order, not position, and so do we.

/** Replies longer than this are read only up to here (the built-in patterns are linear anyway). */
export const TAGGED_READ_LIMIT = 200_000;

const DOUBLE = /\[\[(\d+\.?\d*)\]\]/;
const SINGLE = /\[(\d+\.?\d*)\]/;

export interface TaggedNumber {
  /** The number as written, e.g. "7" or "7.5". */
  text: string;
  value: number;
  /** Offset of the match (the justification is the text before it). */
  index: number;
}

export function findTaggedNumber(reply: string): TaggedNumber | undefined {
  const text = reply.length > TAGGED_READ_LIMIT ? reply.slice(0, TAGGED_READ_LIMIT) : reply;
  const m = DOUBLE.exec(text) ?? SINGLE.exec(text);
  if (!m || m[1] === undefined) return undefined;
  return { text: m[1], value: Number(m[1]), index: m.index };
}

export interface TaggedWinner {
  winner: 'A' | 'B' | 'TIE';
  index: number;
}

const TAGS: [string, 'A' | 'B' | 'TIE'][] = [
  ['[[A]]', 'A'],
  ['[[B]]', 'B'],
  ['[[C]]', 'TIE'],
];

export function findTaggedWinner(reply: string): TaggedWinner | undefined {
  const text = reply.length > TAGGED_READ_LIMIT ? reply.slice(0, TAGGED_READ_LIMIT) : reply;
  for (const [tag, winner] of TAGS) {
    const index = text.indexOf(tag);
    if (index >= 0) return { winner, index };
  }
  return undefined;
}
