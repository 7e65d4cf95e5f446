// `judge-studio thresholds <results> --metric NAME [--by confidence|band] [--json]`: the escalation
// threshold sweep of a tiered run (see core/judge/tiers/thresholdSweep.ts).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkDatasetFile, readDataset } from '../../core/dataset';
import { isSkip, type DatasetRecord } from '../../core/dataset/types';
import { formatSweep, sweepThresholds, type SweepBy } from '../../core/judge/tiers/thresholdSweep';
import { latestPerRow } from '../../core/results';
import { EXIT_OK, UsageError, type Command } from '../io';
import { THRESHOLDS_OPTIONS } from '../options/checking';

export const thresholdsCommand: Command = async (args, io) => {
  const { values, positionals } = parseArgs({
    args,
    options: THRESHOLDS_OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) throw new UsageError('name one results file of a tiered run, e.g. `judge-studio thresholds results.jsonl --metric quality`');
  const metric = values.metric?.trim();
  if (!metric) throw new UsageError('--metric NAME is required');
  if (values.by !== undefined && values.by !== 'confidence' && values.by !== 'band') throw new UsageError(`--by takes confidence or band, got "${values.by}"`);
  const full = path.resolve(io.cwd, file);
  const check = await checkDatasetFile(full);
  if (!check.ok) throw new UsageError(check.message.split(full).join(file));
  const records: DatasetRecord[] = [];
  try {
    for await (const item of latestPerRow(() => readDataset(full, io.signal ? { signal: io.signal } : {}))) {
      if (!isSkip(item)) records.push(item.record);
    }
  } catch (e) {
    throw new UsageError((e as Error).message.split(full).join(file));
  }
  const report = sweepThresholds(records, metric, values.by as SweepBy | undefined);
  if ('error' in report) throw new UsageError(`${file}: ${report.error}`);
  io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatSweep(report));
  return EXIT_OK;
};
