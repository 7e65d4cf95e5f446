// One reviewer's pass over a results file, as pure state (no `vscode`, unit-tested in node): the
// queue, where the reviewer is, their labels and undo history, and the view the webview draws.
// Writing is the caller's job: each action returns the label lines to append.
import { isLabel, parseChoice, parseRating } from '../../core/calibration/labels';
import type { DatasetRecord, DatasetRow } from '../../core/dataset';
import {
  buildQueue,
  currentLabels,
  fromShown,
  humanLabels,
  liveAgreement,
  shownOrder,
  toShown,
  type LabelLine,
  type LabelValue,
  type Queue,
  type QueueItem,
  type QueueOrder,
} from '../../core/labels';
import type { FieldView, ItemView, ReviewView, ShownLabel } from '../../protocol/review';

export interface SessionSpec {
  file: string;
  display: string;
  metric: string;
  kind: 'pointwise' | 'pairwise';
  scale: { min: number; max: number } | undefined;
  rows: readonly DatasetRow[];
  /** Key fields for rows without `_key` (from the template or the labels file). */
  fields: string[] | undefined;
  /** Fields shown as the row's inputs, in order; undefined: every non-metric field. */
  inputFields: string[] | undefined;
  /** Pairwise: the fields holding response A and B in the file. */
  pair: [string, string] | undefined;
  annotator: string;
  labelsFile: string;
  template: string | undefined;
  order: QueueOrder;
  seed: string;
  blind: boolean;
  targetWidth: number;
}

const MAX_TEXT = 20_000;

interface UndoEntry {
  key: string;
  previous: LabelLine | undefined;
  index: number;
}

export class ReviewSession {
  private queue: Queue;
  private lines: LabelLine[] = [];
  private index = 0;
  private readonly undoStack: UndoEntry[] = [];
  private order: QueueOrder;
  private targetWidth: number;

  constructor(
    private readonly spec: SessionSpec,
    lines: readonly LabelLine[],
    private readonly now: () => Date = () => new Date(),
  ) {
    this.order = spec.order;
    this.targetWidth = spec.targetWidth;
    this.lines = [...lines];
    this.queue = this.build();
    this.index = this.firstUnlabelled(0) ?? 0;
  }

  private build(): Queue {
    return buildQueue(this.spec.rows, { metric: this.spec.metric, order: this.order, seed: this.spec.seed, fields: this.spec.fields });
  }

  get current(): QueueItem | undefined {
    return this.queue.items[this.index];
  }

  /** The labels file changed (this reviewer's write, or someone else's). */
  setLines(lines: readonly LabelLine[]): void {
    this.lines = [...lines];
  }

  setOrder(order: QueueOrder): void {
    if (order === this.order) return;
    const key = this.current?.key;
    this.order = order;
    this.queue = this.build();
    this.index = this.firstUnlabelled(0) ?? Math.max(0, this.queue.items.findIndex((i) => i.key === key));
  }

  setWidth(width: number): void {
    this.targetWidth = width;
  }

  /** The reviewer's label on the current row (`label` as shown), and the line to append; undefined when it does not fit. */
  label(key: string, shown: ShownLabel, comment: string): LabelLine | undefined {
    const item = this.current;
    if (!item || item.key !== key) return undefined;
    const value = this.fromView(item, shown);
    if (value === undefined) return undefined;
    const line = this.line(item, value, comment);
    this.undoStack.push({ key: item.key, previous: this.mine(item.key), index: this.index });
    this.lines.push(line);
    this.index = this.firstUnlabelled(this.index + 1) ?? Math.min(this.index + 1, Math.max(0, this.queue.items.length - 1));
    return line;
  }

  skip(): void {
    if (this.queue.items.length > 0) this.index = (this.index + 1) % this.queue.items.length;
  }

  move(delta: number): void {
    const n = this.queue.items.length;
    if (n > 0) this.index = Math.min(n - 1, Math.max(0, this.index + delta));
  }

  /** Undoes this session's last label: the label before it is appended again, or a retraction (label null). */
  undo(): LabelLine | undefined {
    const entry = this.undoStack.pop();
    if (!entry) return undefined;
    const item = this.queue.items[entry.index]?.key === entry.key ? this.queue.items[entry.index] : this.queue.items.find((i) => i.key === entry.key);
    const base: LabelLine = entry.previous
      ? { ...entry.previous, time: this.now().toISOString() }
      : { _key: entry.key, metric: this.spec.metric, label: null, annotator: this.spec.annotator, time: this.now().toISOString(), comment: 'undo' };
    this.lines.push(base);
    const at = item ? this.queue.items.indexOf(item) : -1;
    if (at >= 0) this.index = at;
    return base;
  }

  /** The current row's record (for Add as Example) with the reviewer's label in the file's order. */
  labelledRow(key: string): { record: DatasetRecord; label: LabelValue; comment: string | undefined } | undefined {
    const item = this.queue.items.find((i) => i.key === key);
    const mine = this.mine(key);
    if (!item || !mine || mine.label === null) return undefined;
    return { record: item.record, label: mine.label, comment: mine.comment };
  }

  private line(item: QueueItem, label: LabelValue, comment: string): LabelLine {
    const line: LabelLine = { _key: item.key, metric: this.spec.metric, label, annotator: this.spec.annotator, time: this.now().toISOString() };
    if (comment.trim() !== '') line.comment = comment.trim();
    if (this.spec.kind === 'pairwise') line.shown = shownOrder(this.spec.seed, item.key);
    if (this.spec.fields) line.fields = this.spec.fields;
    return line;
  }

  private fromView(item: QueueItem, shown: ShownLabel): LabelValue | undefined {
    if (this.spec.kind === 'pairwise') return typeof shown === 'string' ? fromShown(shown, shownOrder(this.spec.seed, item.key)) : undefined;
    if (typeof shown !== 'number') return undefined;
    const scale = this.spec.scale;
    if (scale && (shown < scale.min || shown > scale.max)) return undefined;
    return shown;
  }

  private mine(key: string): LabelLine | undefined {
    return currentLabels(this.lines, this.spec.metric).get(key)?.get(this.spec.annotator);
  }

  private firstUnlabelled(from: number): number | undefined {
    const current = currentLabels(this.lines, this.spec.metric);
    for (let i = from; i < this.queue.items.length; i++) {
      const key = this.queue.items[i]?.key;
      if (key !== undefined && !current.get(key)?.has(this.spec.annotator)) return i;
    }
    return undefined;
  }

  view(): ReviewView {
    const s = this.spec;
    const current = currentLabels(this.lines, s.metric);
    const human = humanLabels(this.lines, s.metric);
    const pairs: { human: LabelValue; judge: LabelValue }[] = [];
    let labelled = 0;
    for (const item of this.queue.items) {
      if (current.get(item.key)?.has(s.annotator)) labelled++;
      const h = human.labels.get(item.key);
      const j = this.judgeLabel(item.record);
      if (h !== undefined && j !== undefined) pairs.push({ human: h, judge: j });
    }
    const a = liveAgreement(pairs, this.targetWidth);
    return {
      file: s.file,
      display: s.display,
      metric: s.metric,
      kind: s.kind,
      scale: s.scale ?? null,
      order: this.order,
      seed: s.seed,
      blind: s.blind,
      annotator: s.annotator,
      labelsFile: s.labelsFile,
      template: s.template ?? null,
      total: this.queue.items.length,
      labelled,
      failed: this.queue.failed,
      unjudged: this.queue.unjudged,
      annotators: human.annotators,
      item: this.current ? this.itemView(this.current, current.get(this.current.key)) : null,
      previous: this.previous(current),
      agreement: {
        n: a.n,
        agree: a.agree,
        accuracy: a.accuracy,
        low: a.interval?.low ?? null,
        high: a.interval?.high ?? null,
        balanced_accuracy: a.balanced_accuracy,
        cohen_kappa: a.cohen_kappa,
        target_width: a.target_width,
        more_needed: a.more_needed ?? null,
      },
    };
  }

  private previous(current: ReturnType<typeof currentLabels>): ReviewView['previous'] {
    const last = this.undoStack[this.undoStack.length - 1];
    const item = last ? this.queue.items.find((i) => i.key === last.key) : undefined;
    if (!item || item.key === this.current?.key) return null;
    const v = this.itemView(item, current.get(item.key));
    if (v.mine === null) return null;
    return { key: v.key, row: v.row, mine: v.mine, verdict: v.judge?.verdict ?? null, agree: v.judge?.agree ?? null, canAddExample: v.canAddExample };
  }

  private judgeLabel(record: DatasetRecord): LabelValue | undefined {
    const m = this.spec.metric;
    if (this.spec.kind === 'pointwise') {
      const v = parseRating(record[`${m}/score`]);
      return isLabel(v) ? v : undefined;
    }
    const v = parseChoice(record[`${m}/pairwise_choice`]);
    return isLabel(v) ? v : undefined;
  }

  private itemView(item: QueueItem, labels: ReadonlyMap<string, LabelLine> | undefined): ItemView {
    const s = this.spec;
    const mine = labels?.get(s.annotator);
    const shown = s.kind === 'pairwise' ? shownOrder(s.seed, item.key) : null;
    const toView = (v: LabelValue): ShownLabel => (typeof v === 'string' && shown ? toShown(v, shown) : v);
    const judge = this.judgeLabel(item.record);
    const revealed = !s.blind || mine !== undefined;
    const agree = mine && mine.label !== null && judge !== undefined ? mine.label === judge : null;
    const m = s.metric;
    const justification = item.record[`${m}/justification`];
    const confidence = item.record[`${m}/confidence`];
    return {
      key: item.key,
      row: item.row,
      index: this.queue.items.indexOf(item),
      reasons: item.reasons,
      inputs: this.inputs(item.record),
      responses: s.pair && shown ? this.responses(item.record, s.pair, shown) : null,
      shown,
      mine: mine && mine.label !== null ? toView(mine.label) : null,
      comment: mine?.comment ?? '',
      others: labels ? [...labels.keys()].filter((a) => a !== s.annotator).length : 0,
      judge:
        revealed && judge !== undefined
          ? {
              verdict: String(toView(judge)),
              justification: typeof justification === 'string' ? justification.slice(0, MAX_TEXT) : '',
              confidence: typeof confidence === 'number' && Number.isFinite(confidence) ? confidence : null,
              agree,
            }
          : null,
      canAddExample: agree === false && s.template !== undefined,
    };
  }

  private inputs(record: DatasetRecord): FieldView[] {
    const pair = new Set(this.spec.pair ?? []);
    const names = this.spec.inputFields ?? Object.keys(record).filter((k) => !k.includes('/') && !k.startsWith('_'));
    return names.filter((n) => !pair.has(n) && Object.hasOwn(record, n)).map((name) => ({ name, value: text(record[name]) }));
  }

  private responses(record: DatasetRecord, pair: [string, string], shown: 'AB' | 'BA'): [FieldView, FieldView] {
    const [a, b] = shown === 'AB' ? pair : [pair[1], pair[0]];
    return [
      { name: a, value: text(record[a]) },
      { name: b, value: text(record[b]) },
    ];
  }
}

function text(value: unknown): string {
  const s = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value, null, 1);
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}… (${s.length - MAX_TEXT} more characters)` : s;
}
