// A results line's criteria (multi-criterion templates) and tier record (tiered runs) read back
// for the run view. Defensive like ./result.ts: a hand-edited line never shows a made-up score.
import type { CriteriaView, TiersView } from '../../../protocol/criteria';
import type { Line } from './result';

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** Columns the criteria and tier features write, beside the engine's usual ones (not "other reply fields"). */
export function isCriteriaOrTierColumn(name: string): boolean {
  return ['score_rounded', 'criteria', 'tier', 'tiers', 'escalation', 'audit'].includes(name) || name.startsWith('score_');
}

export function criteriaView(line: Line, metric: string): CriteriaView | null {
  const detail = obj(line[`${metric}/criteria`]);
  if (!detail) return null;
  const rows = Object.entries(detail).flatMap(([name, value]) => {
    const c = obj(value);
    if (!c) return [];
    const evidence = Array.isArray(c.evidence) ? c.evidence.filter((e): e is string => typeof e === 'string') : [];
    return [{ name, weight: num(c.weight), score: num(c.score), evidence, justification: str(c.justification), improvement: str(c.improvement) }];
  });
  return { rows, overall: num(line[`${metric}/score`]), rounded: num(line[`${metric}/score_rounded`]) };
}

function tierVerdict(value: unknown): TiersView['screen'] | null {
  const v = obj(value);
  if (!v) return null;
  const error = typeof v.error_kind === 'string' ? v.error_kind : null;
  const verdict = error ? 'failed' : typeof v.pairwise_choice === 'string' ? v.pairwise_choice : num(v.score) !== null ? `score ${num(v.score)}` : '–';
  return { model: str(v.model), verdict, error };
}

export function tiersView(line: Line, metric: string): TiersView | null {
  const tiers = obj(line[`${metric}/tiers`]);
  const decided = line[`${metric}/tier`];
  const screen = tierVerdict(tiers?.screen);
  if (!tiers || !screen || (decided !== 'screen' && decided !== 'judge')) return null;
  const escalation = line[`${metric}/escalation`];
  return {
    decided,
    escalation: Array.isArray(escalation) ? escalation.filter((e): e is string => typeof e === 'string') : [],
    audited: line[`${metric}/audit`] === true,
    screen,
    judge: tierVerdict(tiers.judge),
  };
}
