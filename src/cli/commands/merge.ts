// `judge-studio merge R1.jsonl R2.jsonl … --out R.jsonl`: joins the results files of a sharded run
// (`run --shard K/N` on N machines) into one, ordered by `_row`, the last line per row standing.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { ResultsLockedError } from '../../core/judge/run/lock';
import { MergeError, mergeResults } from '../../core/results/merge';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError } from '../io';
import { readManifest } from '../runManifest';
import type { Command } from '../io';
import { MERGE_OPTIONS } from '../options/checking';

export const mergeCommand: Command = async (args, io) => {
  const { values: v, positionals } = parseArgs({ args, options: MERGE_OPTIONS, allowPositionals: true, strict: true });
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
