// A panel of judges (issue #12): every member runs the whole protocol (swap passes, samples,
// repair) on every row through the same `judgeRow` as a single judge, with its own client, model
// and cache scope, sharing the run's limiter; votes.ts then aggregates their verdicts.
import type { DatasetRow } from '../../dataset/types';
import { isErrorKind } from '../../results/errorKinds';
import type { EngineContext, JudgeSettings } from '../engine/pass';
import { aggregatePanel, defaultQuorum, type JudgeVote, type PanelShape } from './votes';
import type { PreparedJudge } from '../engine/prepare';
import { judgeRow, type RowOutcome, type RowVerdict } from '../engine/row';
import type { JudgeClient } from '../transport/types';
import { WINNERS, type Winner } from '../strategies/winners';
import { isCategorical, passedColumn } from '../strategies/categorical';

export { defaultQuorum, type JudgeVote } from './votes';

export interface PanelMember {
  /** The name in `m/judges`: the model, with `@host` when two members share a model name. */
  label: string;
  client: JudgeClient;
  settings: JudgeSettings;
  /** Cache scope of the member's endpoint (two members never share cached answers). */
  cacheScope: string;
}

export interface Panel {
  members: PanelMember[];
  /** Judges that must answer (`min_judges`); default a strict majority of the panel. */
  quorum?: number;
}

/** A member as configured: a model and the base URL it is asked at. */
export interface MemberSpec {
  model: string;
  baseURL: string;
}

/**
 * Labels for `m/judges`: the model name; `model@host` when two members share a model name; and
 * `model@host#k` when two members are the same model at the same host (a repeated judge).
 */
export function memberLabels(specs: readonly MemberSpec[]): string[] {
  const hostOf = (url: string) => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  };
  const byModel = new Map<string, number>();
  for (const s of specs) byModel.set(s.model, (byModel.get(s.model) ?? 0) + 1);
  const labels = specs.map((s) => ((byModel.get(s.model) ?? 0) > 1 ? `${s.model}@${hostOf(s.baseURL)}` : s.model));
  const seen = new Map<string, number>();
  const total = new Map<string, number>();
  for (const l of labels) total.set(l, (total.get(l) ?? 0) + 1);
  return labels.map((l) => {
    if ((total.get(l) ?? 0) < 2) return l;
    const k = (seen.get(l) ?? 0) + 1;
    seen.set(l, k);
    return `${l}#${k}`;
  });
}

/** The kind of panel a template makes: pairwise, pass/fail (two-point scale) or a score scale. */
export function panelShape(judge: PreparedJudge, panel: Panel): PanelShape {
  const { config } = judge;
  const scale = config.scale;
  return {
    kind: config.kind,
    binary: config.kind === 'pointwise' && scale !== undefined && !scale.continuous && scale.max - scale.min === 1,
    categorical: isCategorical(config),
    quorum: panel.quorum ?? defaultQuorum(panel.members.length),
  };
}

const isWinner = (v: unknown): v is Winner => typeof v === 'string' && (WINNERS as readonly string[]).includes(v);

/** One member's row outcome as its `m/judges` entry. */
export function voteOf(outcome: RowVerdict, label: string): JudgeVote {
  const col = (name: string): unknown => outcome.columns[name];
  const num = (name: string): number | undefined => {
    const v = col(name);
    return typeof v === 'number' ? v : undefined;
  };
  const choice = col('pairwise_choice');
  const score = col('score');
  const categoryLabel = col('label');
  const verdict = outcome.status === 'ok' ? (isWinner(choice) ? choice : typeof score === 'number' ? score : typeof categoryLabel === 'string' ? categoryLabel : null) : null;
  const consistent = col('position_consistent');
  const kind = col('error_kind');
  const justification = col('justification');
  const flip = num('flip_rate');
  const sd = num('score_sd');
  const expected = col('score_expected');
  return {
    judge: label,
    verdict,
    confidence: verdict === null ? null : (num('confidence') ?? null),
    position_consistent: typeof consistent === 'boolean' ? consistent : null,
    error_kind: outcome.status === 'failed' ? outcome.kind : isErrorKind(kind) ? kind : null,
    ...(outcome.status === 'failed' ? { error: outcome.error } : {}),
    ...(typeof justification === 'string' ? { justification } : {}),
    ...(flip !== undefined ? { flip_rate: flip } : {}),
    ...(sd !== undefined ? { score_sd: sd } : {}),
    ...(expected !== undefined ? { score_expected: typeof expected === 'number' ? expected : null } : {}),
  };
}

/** Judges one row with every member of the panel, concurrently, and aggregates their verdicts. */
export async function judgePanelRow(row: DatasetRow, judge: PreparedJudge, samples: number, ctx: EngineContext, panel: Panel): Promise<RowOutcome> {
  const outcomes = await Promise.all(
    panel.members.map((m) => {
      const peers = panel.members.filter((o) => o !== m).map((o) => ({ client: o.client, model: o.settings.model }));
      return judgeRow(row, judge, samples, { ...ctx, client: m.client, settings: m.settings, cacheScope: m.cacheScope, peers });
    }),
  );
  const finished: RowVerdict[] = [];
  for (const o of outcomes) {
    if (o.status === 'aborted' || o.status === 'deferred') return o;
    finished.push(o);
  }
  const votes = finished.map((o, i) => voteOf(o, panel.members[i]!.label));
  // Every member's passes, each marked with its judge: the editor's judge × pass table and the
  // position-bias figures read them from the one `m/passes` column.
  const passes = finished.flatMap((o, i) => {
    const p = o.columns.passes;
    return Array.isArray(p) ? p.map((x: unknown) => ({ judge: panel.members[i]!.label, ...(x as Record<string, unknown>) })) : [];
  });
  const verdict = aggregatePanel(panelShape(judge, panel), votes);
  const columns = { ...verdict.columns, ...passedColumn(judge.config, verdict.columns), ...(judge.config.kind === 'pairwise' ? { passes } : {}) };
  return verdict.ok ? { status: 'ok', columns } : { status: 'failed', columns, error: verdict.error, kind: verdict.kind };
}
