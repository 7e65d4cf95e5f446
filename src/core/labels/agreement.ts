// Agreement between human annotators: Cohen's kappa when there are exactly two, Krippendorff's
// alpha for any number (missing labels allowed). Alpha follows Krippendorff (2011), "Computing
// Krippendorff's Alpha-Reliability": a coincidence matrix over pairable values, then
// alpha = 1 - D_o / D_e, with the nominal, ordinal and interval difference functions.
import { cohenKappa, compareLabels } from '../calibration/confusion';
import type { Figure } from '../calibration/types';
import { currentLabels } from './majority';
import type { LabelLine, LabelValue } from './types';

export type AlphaLevel = 'nominal' | 'ordinal' | 'interval';

export interface AnnotatorAgreement {
  annotators: string[];
  /** Keys labelled by at least two annotators (the units alpha rests on). */
  units: number;
  /** Exactly two annotators: Cohen's kappa over the keys both labelled; else null. */
  cohen_kappa: Figure;
  /** Keys both of the two annotators labelled (0 unless there are exactly two). */
  kappa_n: number;
  /** Nominal always; ordinal and interval too when the labels are numbers (a scale). */
  krippendorff_alpha: Partial<Record<AlphaLevel, Figure>> & { nominal: Figure };
}

/** Units × annotators, `undefined` where an annotator gave no label. */
export type ReliabilityData = (LabelValue | undefined)[][];

/**
 * Krippendorff's alpha. `units[u][c]` is coder c's value for unit u (undefined: missing).
 * Units with fewer than two values are not pairable and are ignored. Null when undefined
 * (fewer than two pairable values, or no variation at all).
 */
export function krippendorffAlpha(units: ReliabilityData, level: AlphaLevel): Figure {
  const values: LabelValue[] = [];
  const index = new Map<LabelValue, number>();
  const pairable = units.map((u) => u.filter((v): v is LabelValue => v !== undefined)).filter((u) => u.length >= 2);
  for (const u of pairable) for (const v of u) if (!index.has(v)) index.set(v, -1);
  values.push(...[...index.keys()].sort(compareLabels));
  values.forEach((v, i) => index.set(v, i));
  const k = values.length;
  if (k === 0) return null;
  if (level !== 'nominal' && values.some((v) => typeof v !== 'number')) throw new Error(`${level} alpha needs numeric labels`);
  // Coincidence matrix: each ordered pair of values within a unit adds 1 / (m_u - 1).
  const o = values.map(() => new Array<number>(k).fill(0));
  for (const u of pairable) {
    const w = 1 / (u.length - 1);
    for (let i = 0; i < u.length; i++) {
      for (let j = 0; j < u.length; j++) {
        if (i === j) continue;
        o[index.get(u[i]!)!]![index.get(u[j]!)!]! += w;
      }
    }
  }
  const nc = o.map((row) => row.reduce((a, b) => a + b, 0));
  const n = nc.reduce((a, b) => a + b, 0);
  if (n < 2) return null;
  const delta = differenceFunction(values, nc, level);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < k; d++) {
      const dd = delta(c, d);
      observed += o[c]![d]! * dd;
      expected += nc[c]! * nc[d]! * dd;
    }
  }
  if (expected === 0) return null;
  return 1 - ((n - 1) * observed) / expected;
}

/** Squared difference δ²(c, d) between value indices, per Krippendorff's metric for the level. */
function differenceFunction(values: readonly LabelValue[], nc: readonly number[], level: AlphaLevel): (c: number, d: number) => number {
  if (level === 'nominal') return (c, d) => (c === d ? 0 : 1);
  if (level === 'interval') return (c, d) => ((values[c] as number) - (values[d] as number)) ** 2;
  // Ordinal: (sum of n_g for g from c to d, minus (n_c + n_d) / 2)², over the ranks of the values used.
  return (c, d) => {
    if (c === d) return 0;
    const [lo, hi] = c < d ? [c, d] : [d, c];
    let sum = 0;
    for (let g = lo; g <= hi; g++) sum += nc[g]!;
    return (sum - (nc[lo]! + nc[hi]!) / 2) ** 2;
  };
}

/** Cohen's kappa between two annotators over the keys both labelled. */
export function annotatorKappa(pairs: readonly [LabelValue, LabelValue][]): Figure {
  if (pairs.length === 0) return null;
  const labels = [...new Set(pairs.flat())].sort(compareLabels);
  const at = new Map(labels.map((l, i) => [l, i]));
  const m = labels.map(() => labels.map(() => 0));
  for (const [a, b] of pairs) m[at.get(a)!]![at.get(b)!]!++;
  return cohenKappa(m);
}

/** Inter-annotator agreement for one metric; undefined with fewer than two annotators. */
export function annotatorAgreement(lines: readonly LabelLine[], metric: string): AnnotatorAgreement | undefined {
  const current = currentLabels(lines, metric);
  const annotators = [...new Set([...current.values()].flatMap((m) => [...m.keys()]))].sort();
  if (annotators.length < 2) return undefined;
  const data: ReliabilityData = [];
  let numeric = true;
  for (const byAnnotator of current.values()) {
    const row = annotators.map((a) => byAnnotator.get(a)?.label ?? undefined);
    for (const v of row) if (v !== undefined && typeof v !== 'number') numeric = false;
    data.push(row);
  }
  const units = data.filter((u) => u.filter((v) => v !== undefined).length >= 2).length;
  let cohen: Figure = null;
  let kappaN = 0;
  if (annotators.length === 2) {
    const pairs = data.filter((u) => u[0] !== undefined && u[1] !== undefined) as [LabelValue, LabelValue][];
    kappaN = pairs.length;
    cohen = annotatorKappa(pairs);
  }
  const alpha: AnnotatorAgreement['krippendorff_alpha'] = { nominal: krippendorffAlpha(data, 'nominal') };
  if (numeric) {
    alpha.ordinal = krippendorffAlpha(data, 'ordinal');
    alpha.interval = krippendorffAlpha(data, 'interval');
  }
  return { annotators, units, cohen_kappa: cohen, kappa_n: kappaN, krippendorff_alpha: alpha };
}
