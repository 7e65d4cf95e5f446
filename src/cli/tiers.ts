// `judge-studio run` options for tiered judging: --screen-model, --escalate, --audit, --audit-seed,
// --screen-price. Parsed here so run.ts only passes the result on.
import { parseEscalation, TierStats, type TierOptions } from '../core/judge/tiers/tiered';
import type { Prices } from '../core/judge/reports/summary';
import { UsageError } from './io';
import type { TIER_OPTIONS } from './options/shared';

export interface TierSetup {
  options: TierOptions;
  stats: TierStats;
  screenPrice?: Prices;
}

export function tierSetup(v: Partial<Record<keyof typeof TIER_OPTIONS, string>>, judgeModel: string, parsePrice: (t: string) => Prices): TierSetup | undefined {
  const screen = v['screen-model'];
  if (screen === undefined) {
    for (const k of ['escalate', 'audit', 'audit-seed', 'screen-price'] as const) {
      if (v[k] !== undefined) throw new UsageError(`--${k} goes with --screen-model (tiered judging)`);
    }
    return undefined;
  }
  if (!screen.trim()) throw new UsageError('--screen-model needs a model name');
  if (screen === judgeModel) throw new UsageError(`--screen-model and --model are both "${screen}"; a tier needs a different (cheaper) model`);
  const parsed = parseEscalation(v.escalate ?? 'failed');
  if (!parsed.ok) throw new UsageError(parsed.error);
  let audit: TierOptions['audit'];
  if (v.audit !== undefined) {
    const percent = Number(v.audit);
    if (!/^\d+(\.\d+)?$/.test(v.audit.trim()) || percent > 100) throw new UsageError(`--audit takes a percent from 0 to 100, got "${v.audit}"`);
    const seedText = v['audit-seed'] ?? '1';
    if (!/^\d+$/.test(seedText)) throw new UsageError(`--audit-seed takes a whole number, got "${seedText}"`);
    audit = { percent, seed: Number(seedText) };
  } else if (v['audit-seed'] !== undefined) throw new UsageError('--audit-seed goes with --audit');
  return {
    options: { screenModel: screen, judgeModel, escalate: parsed.rule, ...(audit ? { audit } : {}) },
    stats: new TierStats(screen, judgeModel),
    ...(v['screen-price'] !== undefined ? { screenPrice: parsePrice(v['screen-price']) } : {}),
  };
}
