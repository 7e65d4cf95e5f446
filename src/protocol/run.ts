// Messages between the run view (webview) and the extension host. The host sends a complete,
// display-ready view on every change; the page only draws it. Both sides validate on receipt.
// zod/mini, as in ./preview.ts: the same checks at a fraction of the webview bundle.
import * as z from 'zod/mini';
import { criteriaViewSchema, tiersViewSchema } from './criteria';

const winner = z.enum(['A', 'B', 'TIE']);
const order = z.enum(['AB', 'BA']);
const finite = z.number().check(z.refine(Number.isFinite, 'not a finite number'));

/** `unusable`: the judge answered, but the row failed (the reply broke the schema even after a repair). */
export const passStateSchema = z.enum(['waiting', 'sent', 'retrying', 'repairing', 'following-up', 'answered', 'unusable', 'failed']);
export type PassState = z.infer<typeof passStateSchema>;

/** One judge pass as the status line shows it while the run is in flight. */
export const passStatusSchema = z.object({ order, label: z.string(), state: passStateSchema });
export type PassStatus = z.infer<typeof passStatusSchema>;

export const chatMessageSchema = z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() });

/** The messages of one pass order (`single` for pointwise), as sent. */
export const renderedOrderSchema = z.object({ label: z.enum(['AB', 'BA', 'single']), messages: z.array(chatMessageSchema) });
export type RenderedOrder = z.infer<typeof renderedOrderSchema>;

export const rawReplySchema = z.object({ label: z.string(), text: z.string() });
export type RawReply = z.infer<typeof rawReplySchema>;

/** A reply field a template added beyond the default ones, shown under the verdict. */
export const extraFieldSchema = z.object({ name: z.string(), value: z.string() });

export const pairPassSchema = z.object({
  order,
  /** Winner already mapped back to the row's labels. */
  winner,
  confidence: z.nullable(finite),
  justification: z.string(),
});
export type PairPass = z.infer<typeof pairPassSchema>;

export const dimensionRowSchema = z.object({
  name: z.string(),
  /** One cell per pass, in pass order; null where a pass gave no verdict for this dimension. */
  passes: z.array(z.nullable(z.object({ winner, degree: z.string() }))),
  final: z.object({ winner, degree: z.string() }),
});
export type DimensionRow = z.infer<typeof dimensionRowSchema>;

export const dimensionalPassSchema = z.object({
  order,
  winner,
  degree: z.string(),
  rankingA: finite,
  rankingB: finite,
  deflectionA: z.boolean(),
  deflectionB: z.boolean(),
  justification: z.string(),
});

export const violationSchema = z.object({ pass: z.nullable(z.int()), rule: z.string(), message: z.string() });
export type ViolationView = z.infer<typeof violationSchema>;

export const resultViewSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('pointwise'),
    score: finite,
    /** The template's scale when known, for the scale strip. */
    scale: z.nullable(z.object({ min: z.int(), max: z.int() })),
    justification: z.string(),
    confidence: z.nullable(finite),
    /** What the confidence measures ("Agreement across samples", "Share of the panel…"), set with it. */
    confidenceLabel: z.optional(z.string()),
    extras: z.array(extraFieldSchema),
    /** The first reply was invalid and a repair request fixed it. */
    repaired: z.optional(z.boolean()),
  }),
  z.object({
    /** A categorical template (`labels:`): the judge answered one of its labels. */
    kind: z.literal('categorical'),
    label: z.string(),
    /** The template's labels when known, in its order, for the label strip. */
    labels: z.nullable(z.array(z.string())),
    /** Whether the label is one of the template's `passing_labels` (`m/passed`); null without them. */
    passed: z.nullable(z.boolean()),
    justification: z.string(),
    confidence: z.nullable(finite),
    confidenceLabel: z.optional(z.string()),
    extras: z.array(extraFieldSchema),
    repaired: z.optional(z.boolean()),
  }),
  z.object({
    kind: z.literal('pairwise'),
    winner,
    confidence: z.nullable(finite),
    /** null when only one pass ran (swap off). */
    consistent: z.nullable(z.boolean()),
    justification: z.string(),
    passes: z.array(pairPassSchema),
    extras: z.array(extraFieldSchema),
    repaired: z.optional(z.boolean()),
  }),
  z.object({
    kind: z.literal('dimensional'),
    winner,
    degree: z.string(),
    confidence: z.nullable(finite),
    consistent: z.nullable(z.boolean()),
    justification: z.string(),
    rankingA: z.nullable(finite),
    rankingB: z.nullable(finite),
    dimensions: z.array(dimensionRowSchema),
    passes: z.array(dimensionalPassSchema),
    violations: z.array(violationSchema),
    repaired: z.optional(z.boolean()),
  }),
  z.object({
    kind: z.literal('error'),
    /** One sentence naming the kind of failure, e.g. "The judge's reply could not be used". */
    title: z.string(),
    /** The engine's error kind (`m/error_kind`: rate-limit, timeout, invalid-reply…), when it gave one. */
    errorKind: z.optional(z.nullable(z.string())),
    message: z.string(),
    /** Passes that did finish before the failure (pairwise), mapped back. */
    passes: z.array(pairPassSchema),
  }),
]);
export type ResultView = z.infer<typeof resultViewSchema>;

/** One judge of a panel (issue #12): its verdict, and its passes for the judge × pass table. */
export const panelJudgeSchema = z.object({
  judge: z.string(),
  /** The score or the choice, as text; null when the judge failed. */
  verdict: z.nullable(z.string()),
  confidence: z.nullable(finite),
  consistent: z.nullable(z.boolean()),
  errorKind: z.nullable(z.string()),
  error: z.nullable(z.string()),
  /** Pairwise passes in order (winner mapped back); empty for pointwise. */
  passes: z.array(z.object({ order, winner })),
  justification: z.string(),
  /** Whether this judge gave the panel's verdict. */
  agrees: z.boolean(),
});
export type PanelJudge = z.infer<typeof panelJudgeSchema>;

export const panelViewSchema = z.object({
  /** The panel's verdict as text ("A", "4"), or null when the row failed (quorum, no majority). */
  verdict: z.nullable(z.string()),
  /** Share of the configured panel that gave the verdict. */
  agreement: z.nullable(finite),
  /** false: no strict majority, so the verdict is TIE. */
  majority: z.nullable(z.boolean()),
  judges: z.array(panelJudgeSchema),
});
export type PanelView = z.infer<typeof panelViewSchema>;

export const phaseSchema = z.enum(['running', 'done', 'failed', 'cancelled', 'recorded']);
export type Phase = z.infer<typeof phaseSchema>;

export const runViewSchema = z.object({
  /** Identifies the run (a history entry id, or `row:<n>` for a recorded results row). */
  id: z.string(),
  template: z.object({
    file: z.nullable(z.string()),
    metric: z.string(),
    kind: z.nullable(z.enum(['pointwise', 'pairwise'])),
    /** How the template was chosen for a sample outside its editor, e.g. "picked for notes.md". */
    how: z.optional(z.nullable(z.string())),
    /** A pairwise template's two slot fields (A, B), e.g. response_a and response_b. */
    pair: z.optional(z.nullable(z.array(z.string()))),
  }),
  /** Where the sample came from, e.g. "helpfulness.jsonl, row 3" or "selection in notes.md". */
  source: z.string(),
  /** Extra words about the sample, e.g. which fields came from the selection. */
  note: z.nullable(z.string()),
  model: z.nullable(z.string()),
  /** ISO time the run started (or the history entry's time; for a recorded row, when it was judged). */
  time: z.string(),
  /** What `time` is, when it is not the start of this run, e.g. "judged (batch start)". */
  timeLabel: z.optional(z.string()),
  phase: phaseSchema,
  /** Milliseconds the run took, once it finished. */
  elapsedMs: z.nullable(finite),
  passes: z.array(passStatusSchema),
  messages: z.array(renderedOrderSchema),
  result: z.nullable(resultViewSchema),
  raw: z.array(rawReplySchema),
  canRerun: z.boolean(),
  /** A panel of judges' row: every judge and the panel verdict. */
  panel: z.optional(z.nullable(panelViewSchema)),
  /** Multi-criterion templates: the per-criterion table (./criteria.ts). */
  criteria: z.optional(z.nullable(criteriaViewSchema)),
  /** Tiered runs: which tier decided, and both verdicts. */
  tiers: z.optional(z.nullable(tiersViewSchema)),
});
export type RunView = z.infer<typeof runViewSchema>;

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('show'), view: runViewSchema }),
  /** Confirms a copy, so the page can say so next to the button. */
  z.object({ type: z.literal('copied') }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('rerun') }),
  z.object({ type: z.literal('cancel') }),
  z.object({ type: z.literal('copy') }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;

/** What the page persists (vscode.setState) so the serializer can reopen the same run. */
export const runStateSchema = z.object({ id: z.string() });
export type RunState = z.infer<typeof runStateSchema>;

/** The page's `data-initial` attribute. */
export const initialDataSchema = z.object({ state: runStateSchema, view: z.nullable(runViewSchema) });
export type InitialData = z.infer<typeof initialDataSchema>;
