// From the appended lines to one human label per row. Two rules:
// 1. The last line per (key, annotator) stands: a relabel or an undo is simply a later line, and a
//    line with `label: null` (a retraction) leaves that annotator without a label for the key.
// 2. Across annotators the human label is the majority: the label given by more annotators than
//    any other. A tie between the most common labels (one says 4, another 5; or A, B, TIE once
//    each) gives no human label: the row is left out and counted as `tied`, since picking either
//    side would bias the judge's figures towards one annotator.
import type { LabelLine, LabelValue } from './types';

/** metric → key → annotator → the line that stands. */
export type CurrentLabels = Map<string, Map<string, LabelLine>>;

/** The labels that stand for one metric, after relabels and retractions. */
export function currentLabels(lines: readonly LabelLine[], metric: string): CurrentLabels {
  const byKey: CurrentLabels = new Map();
  for (const l of lines) {
    if (l.metric !== metric) continue;
    let annotators = byKey.get(l._key);
    if (!annotators) byKey.set(l._key, (annotators = new Map()));
    annotators.delete(l.annotator); // re-insert, so iteration order is the order of the standing lines
    if (l.label !== null) annotators.set(l.annotator, l);
  }
  for (const [key, annotators] of byKey) if (annotators.size === 0) byKey.delete(key);
  return byKey;
}

export type Majority = { label: LabelValue; votes: number; of: number } | { label: undefined; tied: LabelValue[]; of: number };

/** The majority label of one key's annotators, or the tied labels when there is none. */
export function majority(annotators: ReadonlyMap<string, LabelLine>): Majority {
  const counts = new Map<LabelValue, number>();
  for (const l of annotators.values()) if (l.label !== null) counts.set(l.label, (counts.get(l.label) ?? 0) + 1);
  let best = 0;
  for (const c of counts.values()) best = Math.max(best, c);
  const top = [...counts].filter(([, c]) => c === best).map(([label]) => label);
  const of = [...counts.values()].reduce((a, b) => a + b, 0);
  if (top.length === 1 && top[0] !== undefined) return { label: top[0], votes: best, of };
  return { label: undefined, tied: top.sort((a, b) => String(a).localeCompare(String(b), 'en', { numeric: true })), of };
}

export interface HumanLabels {
  /** key → majority label. */
  labels: Map<string, LabelValue>;
  /** key → the line of the labels file that gave its majority label (the first standing one that did). */
  lines: Map<string, number>;
  /** Keys whose annotators tied. */
  tied: number;
  annotators: string[];
  /** Key fields recorded in the label lines (the first set seen), for files without `_key`. */
  fields: string[] | undefined;
}

/** One human label per key for `metric`: the majority of the standing labels. */
export function humanLabels(lines: readonly LabelLine[], metric: string): HumanLabels {
  const current = currentLabels(lines, metric);
  const labels = new Map<string, LabelValue>();
  const at = new Map<string, number>();
  const annotators = new Set<string>();
  let tied = 0;
  for (const [key, byAnnotator] of current) {
    for (const a of byAnnotator.keys()) annotators.add(a);
    const m = majority(byAnnotator);
    if (m.label === undefined) tied++;
    else {
      labels.set(key, m.label);
      const line = [...byAnnotator.values()].find((l) => l.label === m.label)?.line;
      if (line !== undefined) at.set(key, line);
    }
  }
  const fields = lines.find((l) => l.metric === metric && l.fields && l.fields.length > 0)?.fields;
  return { labels, lines: at, tied, annotators: [...annotators].sort(), fields };
}

/** Metrics named in the lines, most labelled first. */
export function labelledMetrics(lines: readonly LabelLine[]): string[] {
  const counts = new Map<string, number>();
  for (const l of lines) counts.set(l.metric, (counts.get(l.metric) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([m]) => m);
}
