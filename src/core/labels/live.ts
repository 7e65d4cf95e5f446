// Agreement of the judge with the labels given so far, as the review view shows it while the
// reviewer labels: accuracy with a Wilson 95% interval, balanced accuracy and Cohen's kappa, and
// how many more labels would narrow the interval to a width the user chose.
import { accuracy, balancedAccuracy, cohenKappa, ConfusionCounter, perClass } from '../calibration/confusion';
import type { Figure } from '../calibration/types';
import type { LabelValue } from './types';

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

/** Wilson score interval for k successes in n trials; undefined when n is 0. */
export function wilson(k: number, n: number, z = Z95): Interval | undefined {
  if (n <= 0) return undefined;
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Width of the Wilson interval at proportion p after n trials. */
export function wilsonWidth(p: number, n: number, z = Z95): number {
  const z2 = z * z;
  return (2 * z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
}

/**
 * The smallest total n whose Wilson interval, at the proportion observed so far (0.5 before any
 * label: the widest case), is at most `width` wide. Capped at `cap`; undefined beyond it.
 */
export function labelsForWidth(k: number, n: number, width: number, cap = 1_000_000): number | undefined {
  if (!(width > 0 && width < 1)) return undefined;
  const p = n > 0 ? k / n : 0.5;
  // The width shrinks monotonically in n, so a binary search finds the first n that fits.
  if (wilsonWidth(p, cap) > width) return undefined;
  let lo = 1;
  let hi = cap;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (wilsonWidth(p, mid) <= width) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export interface LiveAgreement {
  /** Rows with a human and a judge label. */
  n: number;
  agree: number;
  accuracy: Figure;
  /** Wilson 95% interval of the accuracy. */
  interval: Interval | undefined;
  balanced_accuracy: Figure;
  cohen_kappa: Figure;
  /** The width asked for, and how many more labels reach it (0: reached; undefined: out of reach). */
  target_width: number;
  more_needed: number | undefined;
}

export function liveAgreement(pairs: readonly { human: LabelValue; judge: LabelValue }[], targetWidth: number): LiveAgreement {
  const counter = new ConfusionCounter<LabelValue>();
  let agree = 0;
  for (const { human, judge } of pairs) {
    counter.add(human, judge);
    if (human === judge) agree++;
  }
  const { labels, matrix } = counter.matrix();
  const n = pairs.length;
  const needed = labelsForWidth(agree, n, targetWidth);
  return {
    n,
    agree,
    accuracy: accuracy(matrix),
    interval: wilson(agree, n),
    balanced_accuracy: balancedAccuracy(perClass(labels, matrix)),
    cohen_kappa: cohenKappa(matrix),
    target_width: targetWidth,
    more_needed: needed === undefined ? undefined : Math.max(0, needed - n),
  };
}
