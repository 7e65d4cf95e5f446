// FastChat's verdict rules (llm_judge/common.py), so an imported MT-Bench judge reads the same
// verdict FastChat would from the same reply:
// - single: the first `[[N]]` (N like 7, 7.5), else the first `[N]`;
// - pairwise: `[[A]]` anywhere wins, else `[[B]]`, else `[[C]]` (a tie). FastChat checks presence
//   in that order, not position, and so do we.

import { MAX_VERDICT_MATCHES } from './match';

/** Replies longer than this are read only up to here (the built-in patterns are linear anyway). */
export const TAGGED_READ_LIMIT = 200_000;

const DOUBLE = /\[\[(\d+\.?\d*)\]\]/;
const SINGLE = /\[(\d+\.?\d*)\]/;
const DOUBLE_ALL = /\[\[(\d+\.?\d*)\]\]/g;
const SINGLE_ALL = /\[(\d+\.?\d*)\]/g;

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

/** Every `[[N]]` in reply order, else every `[N]` (FastChat's fallback applies to the whole reply). */
export function allTaggedNumbers(reply: string): TaggedNumber[] {
  const text = reply.length > TAGGED_READ_LIMIT ? reply.slice(0, TAGGED_READ_LIMIT) : reply;
  for (const re of [DOUBLE_ALL, SINGLE_ALL]) {
    const found: TaggedNumber[] = [];
    for (const m of text.matchAll(re)) {
      if (m[1] !== undefined) found.push({ text: m[1], value: Number(m[1]), index: m.index });
      if (found.length >= MAX_VERDICT_MATCHES) break;
    }
    if (found.length > 0) return found;
  }
  return [];
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

/** Every `[[A]]`, `[[B]]` and `[[C]]` in reply order (`verdict.match: last | unique`). */
export function allTaggedWinners(reply: string): TaggedWinner[] {
  const text = reply.length > TAGGED_READ_LIMIT ? reply.slice(0, TAGGED_READ_LIMIT) : reply;
  const found: TaggedWinner[] = [];
  for (const [tag, winner] of TAGS) {
    for (let at = text.indexOf(tag); at >= 0 && found.length < MAX_VERDICT_MATCHES; at = text.indexOf(tag, at + tag.length)) found.push({ winner, index: at });
  }
  return found.sort((a, b) => a.index - b.index);
}
