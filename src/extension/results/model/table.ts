// The results viewer's model, free of `vscode`: one row per `_row` (the last line stands), in
// `_row` order, with the columns the table shows, and queries (filter, verdict, search, sort,
// window) answered on the host so the page only ever holds the rows on screen.
import { columnsFor, isLabel, jsonCell, labelParser } from '../../../core/calibration/labels';
import type { Label } from '../../../core/calibration/types';
import { isSkip, type DatasetItem } from '../../../core/dataset/types';
import { rowOf, verdictColumn, verdictColumnsText, verdictKindOf, type VerdictKind } from '../../../core/results';
import type { ResultsQuery, ResultsSummary, TableRow } from '../../../protocol/results';

interface Entry extends TableRow {
  /** Lower-cased text searched by the query: inputs, verdict, justification, error. */
  haystack: string;
}

const SNIPPET = 160;
const HAYSTACK = 2000;

/** Metrics with a verdict column (core's verdictColumn: a score, a pairwise choice or a label), sorted. */
export function metricsOf(records: Iterable<Record<string, unknown>>): string[] {
  const found = new Set<string>();
  let seen = 0;
  for (const r of records) {
    for (const k of Object.keys(r)) {
      const column = verdictColumn(k);
      if (column) found.add(column.metric);
    }
    if (++seen >= 200) break; // the first rows name every metric a run writes
  }
  return [...found].sort();
}

/** Why the viewer does not show a file in which metricsOf found no metric. */
export function noVerdictMessage(display: string): string {
  return `${display} has no verdict column (${verdictColumnsText()}); it does not look like a results file. Open it as text instead.`;
}

function text(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function short(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > SNIPPET ? `${one.slice(0, SNIPPET - 1)}…` : one;
}

export class ResultsTable {
  readonly entries: Entry[];
  readonly kind: VerdictKind;
  readonly unreadable: number;
  readonly replaced: number;
  private readonly templateHashes: string[];

  constructor(
    items: readonly DatasetItem[],
    readonly metric: string,
    readonly metrics: string[],
  ) {
    const latest = new Map<number, Record<string, unknown>>();
    let unreadable = 0;
    let replaced = 0;
    for (const item of items) {
      if (isSkip(item)) {
        unreadable++;
        continue;
      }
      const row = rowOf(item.record);
      if (row === undefined) {
        unreadable++;
        continue;
      }
      if (latest.has(row)) replaced++;
      latest.set(row, item.record);
    }
    this.unreadable = unreadable;
    this.replaced = replaced;
    const m = metric;
    // The first line with a verdict column tells the kind (a failed line has it too, as null).
    let kind: VerdictKind | undefined;
    for (const r of latest.values()) if ((kind = verdictKindOf(r, m)) !== undefined) break;
    this.kind = kind ?? 'pointwise';
    const { judge: judgeCol, human: humanCol } = columnsFor(m, this.kind);
    const parseLabel = labelParser(this.kind);
    const parse = (v: unknown): Label | null => {
      const p = parseLabel(v);
      return isLabel<Label>(p) ? p : null;
    };
    const hashes = new Set<string>();
    this.entries = [...latest.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([row, r]): Entry => {
        const verdict = parse(r[judgeCol]);
        const human = parse(r[humanCol]);
        const error = r[`${m}/error`];
        const kind = r[`${m}/error_kind`];
        const violations = jsonCell(r[`${m}/rule_violations`]);
        const confidence = r[`${m}/confidence`];
        const consistent = r[`${m}/position_consistent`];
        const hash = r[`${m}/template_hash`];
        if (typeof hash === 'string') hashes.add(hash);
        const inputs = Object.keys(r).filter((k) => !k.includes('/') && !k.startsWith('_'));
        const justification = text(r[`${m}/justification`]);
        const failed = verdict === null && (text(error) !== '' || typeof kind === 'string');
        const haystack = [...inputs.map((k) => text(r[k])), justification, text(error), verdict === null ? '' : String(verdict)]
          .join('\n')
          .toLowerCase()
          .slice(0, HAYSTACK);
        return {
          row,
          verdict: verdict === null ? null : String(verdict),
          confidence: typeof confidence === 'number' && Number.isFinite(confidence) ? confidence : null,
          consistent: typeof consistent === 'boolean' ? consistent : null,
          violations: Array.isArray(violations) ? violations.length : 0,
          failed,
          errorKind: failed ? (typeof kind === 'string' ? kind : 'unknown') : null,
          human: human === null ? null : String(human),
          agrees: human === null || verdict === null ? null : human === verdict,
          snippet: short(justification || text(error) || inputs.map((k) => text(r[k])).join(' · ')),
          haystack,
        };
      });
    this.templateHashes = [...hashes].sort();
  }

  summary(display: string): ResultsSummary {
    const verdicts = new Map<string, number>();
    const failures = new Map<string, number>();
    let inconsistent = 0;
    let labelled = 0;
    let disagreeing = 0;
    for (const e of this.entries) {
      if (e.verdict !== null) verdicts.set(e.verdict, (verdicts.get(e.verdict) ?? 0) + 1);
      if (e.errorKind !== null) failures.set(e.errorKind, (failures.get(e.errorKind) ?? 0) + 1);
      if (e.consistent === false) inconsistent++;
      if (e.agrees !== null) labelled++;
      if (e.agrees === false) disagreeing++;
    }
    const order = (a: string, b: string) => (this.kind === 'pointwise' ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0);
    return {
      display,
      metric: this.metric,
      metrics: this.metrics,
      kind: this.kind,
      rows: this.entries.length,
      verdicts: [...verdicts].sort((a, b) => order(a[0], b[0])).map(([label, count]) => ({ label, count })),
      failures: [...failures].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([kind, count]) => ({ kind, count })),
      failed: [...failures.values()].reduce((s, c) => s + c, 0),
      inconsistent,
      labelled,
      disagreeing,
      unreadable: this.unreadable,
      replaced: this.replaced,
      templateHashes: this.templateHashes,
    };
  }

  /** The rows matching the query, sorted; only the window [offset, offset + limit) is returned. */
  query(q: ResultsQuery): { total: number; rows: TableRow[] } {
    const needle = q.search.trim().toLowerCase();
    let rows = this.entries.filter((e) => {
      if (q.filter === 'failed' && !e.failed) return false;
      if (q.filter === 'inconsistent' && e.consistent !== false) return false;
      if (q.filter === 'disagree' && e.agrees !== false) return false;
      if (q.verdict !== null && e.verdict !== q.verdict) return false;
      return needle === '' || e.haystack.includes(needle);
    });
    if (q.sort !== 'row' || q.descending) {
      const key = SORT_KEYS[q.sort];
      const dir = q.descending ? -1 : 1;
      rows = [...rows].sort((a, b) => {
        const x = key(a);
        const y = key(b);
        if (x === null || y === null) return x === y ? a.row - b.row : x === null ? 1 : -1; // nulls last either way
        return dir * compare(x, y) || a.row - b.row;
      });
    }
    const window = rows.slice(q.offset, q.offset + q.limit).map(({ haystack: _h, ...row }) => row);
    return { total: rows.length, rows: window };
  }
}

type Key = number | string | null;
const SORT_KEYS: Record<ResultsQuery['sort'], (e: Entry) => Key> = {
  row: (e) => e.row,
  verdict: (e) => (e.verdict === null ? null : Number.isFinite(Number(e.verdict)) ? Number(e.verdict) : e.verdict),
  confidence: (e) => e.confidence,
  consistent: (e) => (e.consistent === null ? null : e.consistent ? 1 : 0),
  violations: (e) => e.violations,
  errorKind: (e) => e.errorKind,
  human: (e) => e.human,
};

function compare(a: number | string, b: number | string): number {
  if (a === b) return 0;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}
