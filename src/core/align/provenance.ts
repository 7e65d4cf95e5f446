// A candidate says where it came from in its front matter, so the reviewer of the change sees it:
// `aligned_from` (the hash of the template it was aligned from) and `alignment` (the candidate, the
// seed and split sizes, the example rows, who wrote their reasoning, and the held-out figures once
// they are known). Every other line of the front matter stays as written.
import { parseDocument } from 'yaml';
import type { CandidateKind } from './types';

export interface Alignment {
  candidate: string;
  kind: CandidateKind;
  seed: number;
  split: { train: number; heldout: number };
  examples?: string[];
  drafted_justifications?: string[];
  author_model?: string;
  date?: string;
  heldout?: { n: number; accuracy: number | null; baseline_accuracy: number | null; delta: number | null; ci: [number, number] | null; mcnemar_p: number | null; overfit: boolean | null };
}

const round = (x: number | null) => (x === null ? null : Math.round(x * 1e4) / 1e4);

export function withAlignment(text: string, from: string, a: Alignment): string {
  const open = /^\uFEFF?---[ \t]*\r?\n/.exec(text);
  if (!open) throw new Error('the template has no front matter to record the alignment in');
  const close = /^(?:---|\.\.\.)[ \t]*$/m.exec(text.slice(open[0].length));
  if (!close) throw new Error('the template front matter is not closed');
  const start = open[0].length;
  const end = start + close.index;
  const doc = parseDocument(text.slice(start, end));
  doc.set('aligned_from', from);
  const h = a.heldout;
  const value = {
    candidate: a.candidate,
    kind: a.kind,
    seed: a.seed,
    split: a.split,
    ...(a.examples && a.examples.length > 0 ? { examples: a.examples } : {}),
    ...(a.drafted_justifications && a.drafted_justifications.length > 0 ? { drafted_justifications: a.drafted_justifications } : {}),
    ...(a.author_model ? { author_model: a.author_model } : {}),
    ...(a.date ? { date: a.date } : {}),
    ...(h ? { heldout: { ...h, accuracy: round(h.accuracy), baseline_accuracy: round(h.baseline_accuracy), delta: round(h.delta), ci: h.ci ? [round(h.ci[0]), round(h.ci[1])] : null, mcnemar_p: h.mcnemar_p === null ? null : Number(h.mcnemar_p.toPrecision(4)) } } : {}),
  };
  const node = doc.createNode(value);
  // Short lists and the figures on one line each: the block stays readable in a diff.
  for (const key of ['split', 'examples', 'drafted_justifications', 'heldout']) {
    const child = node.get(key, true) as { flow?: boolean } | undefined;
    if (child && typeof child === 'object') child.flow = true;
  }
  doc.set('alignment', node);
  const yaml = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  return text.slice(0, start) + yaml + text.slice(end);
}
