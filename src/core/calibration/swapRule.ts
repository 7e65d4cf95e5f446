// `calibrate --swap-rule consistent|votes`: a pairwise verdict re-aggregated from the passes a
// results line stores (`m/passes`: each order's winner, mapped back), with no new calls. Both rules
// are the engine's (core/judge/strategies/votes.ts): `consistent` — the orders must agree, else TIE;
// `votes` — each order's verdict is one vote, a failed order abstains, more votes wins.
import type { DatasetRecord } from '../dataset/types';
import { majorityWinner, voteWinner } from '../judge/strategies/votes';
import type { Winner } from '../judge/strategies/winners';
import type { SwapRule } from '../template/types';
import { put } from './columns';
import { columnsFor, isBlank, jsonCell } from './labels';

export const SWAP_RULES: readonly SwapRule[] = ['consistent', 'votes'];

export function isSwapRule(value: unknown): value is SwapRule {
  return typeof value === 'string' && (SWAP_RULES as readonly string[]).includes(value);
}

const WINNERS: readonly string[] = ['A', 'B', 'TIE'];
/** Failures that are the judge's own answer (no readable verdict): under `votes` they abstain. */
const UNREADABLE: readonly string[] = ['invalid-reply', 'ambiguous-verdict'];

/** A stored pass: its winner, `abstain` (it failed with an unreadable reply), or null (failed otherwise). */
type Entry = Winner | 'abstain' | null;

/** A line's passes, by sample. */
function samplesOf(passes: unknown): Map<number, Entry[]> | undefined {
  const list = jsonCell(passes);
  if (!Array.isArray(list)) return undefined;
  const bySample = new Map<number, Entry[]>();
  for (const p of list as unknown[]) {
    if (typeof p !== 'object' || p === null) continue;
    const { sample, winner, error_kind: kind } = p as { sample?: unknown; winner?: unknown; error_kind?: unknown };
    const s = typeof sample === 'number' ? sample : 1;
    const entries = bySample.get(s) ?? [];
    entries.push(typeof winner === 'string' && WINNERS.includes(winner) ? (winner as Winner) : typeof kind === 'string' && UNREADABLE.includes(kind) ? 'abstain' : null);
    bySample.set(s, entries);
  }
  return bySample;
}

/** One sample's verdict under the rule, null when it has none. */
function sampleVerdict(entries: readonly Entry[], rule: SwapRule): Winner | null {
  const answered = entries.filter((w): w is Winner => w !== null && w !== 'abstain');
  if (rule === 'votes') return answered.length > 0 || entries.every((e) => e === 'abstain') ? voteWinner(answered) : null;
  if (answered.length < entries.length || answered.length === 0) return null;
  return answered.every((w) => w === answered[0]) ? answered[0]! : 'TIE';
}

/**
 * The record with its pairwise verdict re-aggregated under `rule` (the same record when it stores
 * no passes). Under `consistent` a row that failed stays failed (its stored passes are only those
 * that finished); under `votes` a row with an answered pass in every sample gets a verdict.
 */
export function reaggregate(record: DatasetRecord, metric: string, rule: SwapRule): DatasetRecord {
  const bySample = samplesOf(record[`${metric}/passes`]);
  if (!bySample) return record;
  const error = `${metric}/error`;
  const failed = !isBlank(record[error]);
  if (bySample.size === 0) {
    // A failed row stores the passes that finished: none here. Unreadable replies abstain, so the
    // votes are equal (TIE); a transport failure stays a failure.
    if (rule !== 'votes' || !failed || !UNREADABLE.includes(String(record[`${metric}/error_kind`]))) return record;
    bySample.set(1, []);
  }
  const verdicts = [...bySample.values()].map((w) => sampleVerdict(w, rule));
  const decided = verdicts.filter((v): v is Winner => v !== null);
  const verdict = (rule === 'consistent' && failed) || decided.length < verdicts.length ? null : majorityWinner(decided);
  const out: DatasetRecord = { ...record };
  put(out, columnsFor(metric, 'pairwise').judge, verdict);
  // A verdict the stored run did not give is no longer a failure; one the rule cannot give is.
  put(out, error, verdict === null ? (failed ? record[error] : `no verdict under swap rule "${rule}"`) : null);
  return out;
}
