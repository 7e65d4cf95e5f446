// The probe view's data from the files a probe run writes (probe-report.json and
// probe-results.jsonl), free of `vscode`. Both files are workspace content: the report is checked
// against a schema before anything of it is shown.
import * as z from 'zod/mini';
import { isSkip, parseDataset } from '../../core/dataset';
import { ORIGINAL, PROBE_KEY, SOURCE_KEY } from '../../core/probe';
import type { DatasetRecord } from '../../core/dataset/types';
import type { JudgedCopy, ProbeView } from '../../protocol/probe';

/** Longest text or justification sent to the page per copy; the run view shows the whole row. */
export const MAX_TEXT = 4000;

const label = z.union([z.number(), z.string()]);
const figure = z.nullable(z.number());

/** probe-report.json as `runProbes` writes it (the fields the view reads). */
export const probeReportSchema = z.object({
  metric: z.string(),
  kind: z.enum(['pointwise', 'pairwise']),
  target: z.string(),
  threshold: z.number(),
  rows: z.number(),
  failed: z.number(),
  probes: z.array(
    z.object({
      probe: z.string(),
      description: z.string(),
      n: z.number(),
      changed: z.number(),
      changed_share: figure,
      mean_shift: figure,
      mean_shift_ci: z.nullable(z.tuple([z.number(), z.number()])),
      susceptible: z.boolean(),
      moved: z.array(z.object({ row: z.number(), original: label, perturbed: label, shift: z.number() })),
    }),
  ),
  susceptible: z.array(z.string()),
  position_inconsistent: figure,
  method: z.string(),
});

/** The output folder's name: `<metric>-<yyyymmdd-hhmmss>`, like batch results files. */
export function probeDirName(metric: string, time: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${metric}-${time.getFullYear()}${p(time.getMonth() + 1)}${p(time.getDate())}-${p(time.getHours())}${p(time.getMinutes())}${p(time.getSeconds())}`;
}

function text(v: unknown): string {
  return v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);
}

function cut(s: string): { s: string; cut: boolean } {
  return s.length > MAX_TEXT ? { s: s.slice(0, MAX_TEXT), cut: true } : { s, cut: false };
}

/** The judged copies of probe-results.jsonl by source row and probe; where a copy has several lines, the last stands. */
function copiesOf(resultsText: string): Map<string, DatasetRecord> {
  const out = new Map<string, DatasetRecord>();
  for (const item of parseDataset(resultsText, 'jsonl')) {
    if (isSkip(item)) continue;
    const source = item.record[SOURCE_KEY];
    const probe = item.record[PROBE_KEY];
    if (typeof source === 'number' && typeof probe === 'string') out.set(`${source}\u0000${probe}`, item.record);
  }
  return out;
}

export function buildProbeView(
  report: unknown,
  resultsText: string,
  display: { dataset: string; dir: string },
): { ok: true; view: ProbeView } | { ok: false; error: string } {
  const parsed = probeReportSchema.safeParse(report);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `${display.dir}/probe-report.json is not a probe report (${issue ? `${issue.path.join('.') || 'report'}: ${issue.message}` : 'invalid'}).` };
  }
  const r = parsed.data;
  const copies = copiesOf(resultsText);
  const copy = (row: number, probe: string, verdict: string | number): JudgedCopy => {
    const line = copies.get(`${row}\u0000${probe}`);
    const body = cut(text(line?.[r.target]));
    const just = cut(text(line?.[`${r.metric}/justification`]));
    const resultRow = line?._row;
    return {
      verdict: String(verdict),
      text: body.s,
      justification: just.s,
      truncated: body.cut || just.cut,
      resultRow: typeof resultRow === 'number' && Number.isSafeInteger(resultRow) && resultRow > 0 ? resultRow : null,
    };
  };
  const count = (n: number) => (Number.isSafeInteger(n) && n >= 0 ? n : 0);
  return {
    ok: true,
    view: {
      metric: r.metric,
      kind: r.kind,
      target: r.target,
      threshold: r.threshold,
      rows: count(r.rows),
      failed: count(r.failed),
      positionInconsistent: r.position_inconsistent,
      method: r.method,
      dataset: display.dataset,
      dir: display.dir,
      susceptible: r.susceptible,
      probes: r.probes.map((p) => ({
        probe: p.probe,
        description: p.description,
        n: count(p.n),
        changed: count(p.changed),
        share: p.changed_share,
        meanShift: p.mean_shift,
        ci: p.mean_shift_ci,
        susceptible: p.susceptible,
        moved: p.moved
          .filter((m) => Number.isSafeInteger(m.row) && m.row > 0)
          .map((m) => ({ row: m.row, shift: m.shift, original: copy(m.row, ORIGINAL, m.original), perturbed: copy(m.row, p.probe, m.perturbed) })),
      })),
    },
  };
}
