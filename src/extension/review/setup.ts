// What a review needs besides the results file: the reviewer's name, the template (for key fields,
// the scale, the response slots and Add as Example) and the metrics a file has verdicts for.
import { execFile } from 'node:child_process';
import * as os from 'node:os';
import type { DatasetRow } from '../../core/dataset';
import { rowOf, templateHash } from '../../core/results';
import { pairFields, pairStyle, type ParsedTemplate } from '../../core/template';

/**
 * git's user.name in `cwd`, else the OS user, else "reviewer". git runs only in a trusted folder:
 * a repository's own config can make git run programs, and Restricted Mode promises no code runs.
 */
export async function defaultAnnotator(cwd: string | undefined, trusted: boolean): Promise<string> {
  const git = trusted
    ? await new Promise<string | undefined>((resolve) => {
        try {
          execFile('git', ['config', 'user.name'], { cwd, timeout: 3000, windowsHide: true }, (err, stdout) => resolve(err ? undefined : stdout.trim() || undefined));
        } catch {
          resolve(undefined);
        }
      })
    : undefined;
  if (git) return git;
  try {
    return os.userInfo().username || 'reviewer';
  } catch {
    return 'reviewer';
  }
}

export interface JudgedMetric {
  metric: string;
  kind: 'pointwise' | 'pairwise';
  rows: number;
}

/** Metrics with judge verdicts (`m/score` or `m/pairwise_choice`), most rows first. */
export function judgedMetrics(rows: readonly DatasetRow[]): JudgedMetric[] {
  const found = new Map<string, JudgedMetric>();
  for (const { record } of rows) {
    for (const key of Object.keys(record)) {
      const kind = key.endsWith('/score') ? 'pointwise' : key.endsWith('/pairwise_choice') && !key.endsWith('/human_pairwise_choice') ? 'pairwise' : undefined;
      if (!kind) continue;
      const metric = key.slice(0, key.lastIndexOf('/'));
      if (metric === '') continue;
      const entry = found.get(metric) ?? { metric, kind, rows: 0 };
      entry.rows++;
      found.set(metric, entry);
    }
  }
  return [...found.values()].sort((a, b) => b.rows - a.rows || (a.metric < b.metric ? -1 : 1));
}

/** The response slots of a pairwise file: the template's when known, else the ones the rows have. */
export function pairOf(template: ParsedTemplate | undefined, rows: readonly DatasetRow[]): [string, string] | undefined {
  if (template) return pairFields(pairStyle(template));
  const first = rows[0]?.record ?? {};
  if ('response_a' in first && 'response_b' in first) return ['response_a', 'response_b'];
  if ('baseline_model_response' in first && 'response' in first) return ['baseline_model_response', 'response'];
  return undefined;
}

/**
 * Rows numbered as every other view numbers them: by `_row` (results are written in completion
 * order, so the file line says nothing); a line without `_row` keeps its line-based number.
 */
export function numberedByRow(rows: readonly DatasetRow[]): DatasetRow[] {
  return rows.map((r) => {
    const row = rowOf(r.record);
    return row === undefined || row === r.row ? r : { ...r, row };
  });
}

/** The `m/template_hash` values a file's rows carry. */
export function templateHashes(rows: readonly DatasetRow[], metric: string): Set<string> {
  const out = new Set<string>();
  for (const { record } of rows) {
    const h = record[`${metric}/template_hash`];
    if (typeof h === 'string' && h !== '') out.add(h);
  }
  return out;
}

/** Of several candidate templates, the one whose text has a hash the rows carry; undefined when none or several do. */
export function templateByHash<T extends { template: ParsedTemplate }>(found: readonly T[], hashes: ReadonlySet<string>): T | undefined {
  const matching = found.filter((f) => hashes.has(templateHash(f.template.text)));
  return matching.length === 1 ? matching[0] : undefined;
}
