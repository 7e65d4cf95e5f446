// `judge-studio merge R1.jsonl R2.jsonl … --out R.jsonl`: joins the results files of a sharded run
// (`run --shard K/N` on N machines) into one, ordered by `_row`, the last line per row standing.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { ResultsLockedError } from '../../core/judge/run/lock';
import { MergeError, mergeResults } from '../../core/results/merge';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError } from '../io';
import { readManifest } from '../runManifest';
import type { Command } from '../io';

const USAGE = `Usage: judge-studio merge <results.jsonl…> --out <merged.jsonl> [--overwrite] [--json]

Joins results files of one run (e.g. the shards of run --shard K/N) into one file ordered by "_row".
Where a row has several lines, the last one stands (later files win over earlier ones). Files of
different metrics or template versions ("<metric>/template_hash") are refused. Shards are checked by
the run manifest beside each (<file>.run.json, which run --shard writes): shards of different
datasets, or a set missing one K of N, are refused, naming them. An existing --out is never
replaced without --overwrite. Lines that are not JSON are reported and left out (exit 1).
`;

const OPTIONS = {
  out: { type: 'string' },
  overwrite: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const mergeCommand: Command = async (args, io) => {
  const { values: v, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  if (v.help) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  if (positionals.length === 0) throw new UsageError('expected results files: judge-studio merge R1.jsonl R2.jsonl … --out R.jsonl');
  if (!v.out) throw new UsageError('--out <file> is required');
  const inputs = positionals.map((p) => path.resolve(io.cwd, p));
  const out = path.resolve(io.cwd, v.out);
  const label = (f: string) => path.relative(io.cwd, f) || f;
  // Each shard's run manifest says which share of which dataset it judged.
  const shards = await Promise.all(inputs.map(async (f) => (await readManifest(f, label(f)))?.shard));
  let report;
  try {
    report = await mergeResults({ inputs, out, overwrite: v.overwrite === true, label, shards });
  } catch (e) {
    if (e instanceof MergeError || e instanceof ResultsLockedError) {
      io.stderr(`judge-studio merge: ${e.message}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }
  for (const s of report.skipped) io.stderr(`judge-studio merge: ${s.file}:${s.line}: ${s.reason}; left out\n`);
  const from = report.perFile.map((n, i) => `${n} from ${label(inputs[i]!)}`).join(', ');
  io.stderr(`judge-studio merge: ${report.rows} row(s) → ${label(out)} (${from}; ${report.replaced} older line(s) replaced)\n`);
  if (v.json) {
    const json = { out: label(out), rows: report.rows, replaced: report.replaced, skipped: report.skipped, templates: report.templates, inputs: inputs.map((f, i) => ({ file: label(f), rows: report.perFile[i] })) };
    io.stdout(`${JSON.stringify(json, null, 2)}\n`);
  }
  return report.skipped.length > 0 ? EXIT_FINDINGS : EXIT_OK;
};
