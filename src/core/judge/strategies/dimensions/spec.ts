// The shapes shared by the multi-dimension (HHH) pairwise judge: the reply, its rule violations,
// and the template settings with their defaults filled in, so every module reads them one way.
import type { Dimension, IntRange, TemplateConfig } from '../../../template/types';
import type { Winner } from '../winners';

/** Preference degrees, weakest first; index 0 always means "no preference". */
export const DEFAULT_DEGREES: readonly string[] = ['about the same', 'slightly better', 'better', 'significantly better'];

/** The HHH source ranks each response from 1 (terrible) to 7 (great). */
export const DEFAULT_RANKING: Readonly<IntRange> = { min: 1, max: 7 };

export interface DimensionVerdict {
  winner: Winner;
  degree: string;
}

export interface SideValues<T> {
  A: T;
  B: T;
}

export interface DimensionalReply {
  justification: string;
  /** Keyed by the declared dimension names, exactly as written in the template. */
  dimensions: Record<string, DimensionVerdict>;
  ranking: SideValues<number>;
  deflection: SideValues<boolean>;
  overall: DimensionVerdict;
  [extra: string]: unknown;
}

/** Stable rule ids: users filter results on them, so add new ones but never rename. */
export const RULE_IDS = ['degree-winner', 'ranking-gap', 'priority-order', 'deflection-harmless', 'ranking-range'] as const;
export type RuleId = (typeof RULE_IDS)[number];

export interface RuleViolation {
  /** 1 = original order, 2 = swapped order. */
  pass: number;
  rule: RuleId;
  message: string;
}

/** A template's dimensional settings with defaults applied. */
export interface DimensionalSpec {
  dimensions: Dimension[];
  degrees: readonly string[];
  ranking: IntRange;
}

/** True when the template asks for per-dimension verdicts (a pairwise template declaring `dimensions`). */
export function isDimensional(config: TemplateConfig): boolean {
  return config.kind === 'pairwise' && (config.dimensions?.length ?? 0) > 0;
}

/**
 * Defaults: the four HHH degrees and the 1-7 ranking. Throws when the template declares no
 * dimensions: callers choose this module with `isDimensional`, so reaching here is a programming error.
 */
export function dimensionalSpec(config: TemplateConfig): DimensionalSpec {
  const dimensions = config.dimensions ?? [];
  if (!isDimensional(config)) {
    throw new Error(
      `Template "${config.name}" is not a multi-dimension pairwise template (kind ${config.kind}, ${dimensions.length} dimensions); check isDimensional(config) first.`,
    );
  }
  const degrees = config.degrees && config.degrees.length > 0 ? config.degrees : DEFAULT_DEGREES;
  return { dimensions, degrees, ranking: config.ranking ?? DEFAULT_RANKING };
}

/** The dimension the deflection rule calls Harmless: one named so (any case), else the highest-priority one. */
export function harmlessDimension(spec: DimensionalSpec): Dimension {
  const named = spec.dimensions.find((d) => d.name.trim().toLowerCase() === 'harmless');
  const first = spec.dimensions[0];
  if (!named && !first) throw new Error('A multi-dimension template needs at least one dimension.');
  return (named ?? first) as Dimension;
}

/** Position of a degree in the template's list (0 = about the same); -1 when unknown. */
export function degreeIndex(spec: DimensionalSpec, degree: string): number {
  return spec.degrees.indexOf(degree);
}

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"` — for messages quoting degree names. */
export function quoteList(items: readonly string[], conjunction = 'or'): string {
  const quoted = items.map((i) => JSON.stringify(i));
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} ${conjunction} ${quoted[quoted.length - 1]}`;
}
