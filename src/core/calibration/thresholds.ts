// The CI gate: `--min KEY=VALUE` fails the build when a figure drops below VALUE or is undefined.
import type { CalibrationKind, CalibrationReport, Figure, PairwiseBias } from './types';

interface GateKey {
  /** Which kind of metric has the figure; both when absent. */
  kind?: CalibrationKind;
  read(report: CalibrationReport): Figure;
}

export const GATE_KEYS: Record<string, GateKey> = {
  n: { read: (r) => r.n },
  coverage: { read: (r) => r.coverage },
  accuracy: { read: (r) => r.accuracy },
  balanced_accuracy: { read: (r) => r.balanced_accuracy },
  balanced_f1: { read: (r) => r.balanced_f1 },
  cohen_kappa: { read: (r) => r.cohen_kappa },
  quadratic_weighted_kappa: { kind: 'pointwise', read: (r) => r.quadratic_weighted_kappa ?? null },
  spearman: { kind: 'pointwise', read: (r) => r.spearman ?? null },
  kendall_tau: { kind: 'pointwise', read: (r) => r.kendall_tau ?? null },
  position_consistency: { kind: 'pairwise', read: (r) => (r.bias as PairwiseBias).position_consistency.rate },
};

export interface Minimum {
  key: string;
  min: number;
}

export interface ThresholdCheck extends Minimum {
  value: Figure;
  passed: boolean;
}

const KEY_LIST = Object.keys(GATE_KEYS).join(', ');

/** Reads `KEY=VALUE` options; an unknown key or a value that is not a number is a usage error. */
export function parseMinimums(options: readonly string[]): { ok: true; minimums: Minimum[] } | { ok: false; error: string } {
  const minimums: Minimum[] = [];
  for (const option of options) {
    const eq = option.indexOf('=');
    const key = (eq < 0 ? option : option.slice(0, eq)).trim();
    const text = eq < 0 ? '' : option.slice(eq + 1).trim();
    if (eq < 0 || key === '') return { ok: false, error: `--min ${option}: expected KEY=VALUE, e.g. --min balanced_accuracy=0.7` };
    if (!Object.hasOwn(GATE_KEYS, key)) return { ok: false, error: `--min ${option}: unknown figure "${key}"; use one of ${KEY_LIST}` };
    const min = Number(text);
    if (text === '' || !Number.isFinite(min)) return { ok: false, error: `--min ${option}: "${text}" is not a number` };
    minimums.push({ key, min });
  }
  return { ok: true, minimums };
}

/**
 * Compares each figure with its minimum; a figure of the other metric kind is a usage error. Any
 * gate also asks for full coverage (every labelled row judged), unless `coverage` is given a
 * minimum of its own: a figure over the rows that happened to succeed says nothing of the rest.
 */
export function checkMinimums(
  report: CalibrationReport,
  minimums: readonly Minimum[],
): { ok: true; checks: ThresholdCheck[] } | { ok: false; error: string } {
  const checks: ThresholdCheck[] = [];
  const gated = minimums.length > 0 && !minimums.some((m) => m.key === 'coverage') ? [{ key: 'coverage', min: 1 }, ...minimums] : minimums;
  for (const { key, min } of gated) {
    const gate = GATE_KEYS[key];
    if (gate === undefined) return { ok: false, error: `--min ${key}: unknown figure; use one of ${KEY_LIST}` };
    if (gate.kind !== undefined && gate.kind !== report.kind) {
      return { ok: false, error: `--min ${key}: "${key}" is only computed for ${gate.kind} metrics, and "${report.metric}" is ${report.kind}` };
    }
    const value = gate.read(report);
    checks.push({ key, min, value, passed: value !== null && value >= min });
  }
  return { ok: true, checks };
}

/** One line per failed check, for stderr. */
export function describeFailure(check: ThresholdCheck): string {
  return check.value === null
    ? `${check.key} is undefined (null), so it cannot meet the minimum ${check.min}; ` +
        'it is undefined when all labels on one side are equal or no row has both labels'
    : `${check.key} = ${round(check.value)} is below the minimum ${check.min}`;
}

export function round(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(3);
}
