// `judge-studio compare A B --metric M [--metric-b M2] [--json] [--fail-if-worse FIGURE]`: two runs
// of a judge on the same rows, their agreement, the flipped rows and, with human labels, whether B
// is significantly better or worse than A.
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  compareJson,
  compareRuns,
  FIGURES,
  formatCompare,
  isFigureName,
  pairResults,
  significance,
  type BootstrapOptions,
  type FigureName,
} from '../../core/compare';
import { formatOf, readDataset } from '../../core/dataset';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError, type Command } from '../io';

export const COMPARE_USAGE = `Usage: judge-studio compare <A.jsonl> <B.jsonl> --metric NAME [options]

  --metric NAME            the metric in A (and in B unless --metric-b)
  --metric-b NAME          the metric's name in B, when the template was renamed
  --json                   {n, agreement, cohen_kappa, flipped, flips, mean_shift,
                            human: {a, b, delta, mcnemar_p, balanced_accuracy_ci}}
  --fail-if-worse FIGURE   exit 1 when B is significantly worse than A on FIGURE (one of
                           ${FIGURES.join(', ')})
  --seed N, --resamples N  bootstrap seed (default 20240229) and resamples (default 2000)

Rows are paired by "_row" (the last line per row stands). When a pair's inputs differ, compare
refuses (exit 2) and names the rows.
`;

export const compareCommand: Command = async (args, io) => {
  const { values: v, positionals } = parseArgs({
    args,
    options: {
      metric: { type: 'string' },
      'metric-b': { type: 'string' },
      json: { type: 'boolean', default: false },
      'fail-if-worse': { type: 'string' },
      seed: { type: 'string' },
      resamples: { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 2) throw new UsageError('name two results files: judge-studio compare A.jsonl B.jsonl --metric NAME');
  const metric = v.metric?.trim();
  if (!metric) throw new UsageError('--metric NAME is required (the metric whose verdicts are compared)');
  const gate = v['fail-if-worse'];
  if (gate !== undefined && !isFigureName(gate)) throw new UsageError(`--fail-if-worse takes one of ${FIGURES.join(', ')}; got "${gate}"`);
  const bootstrap: BootstrapOptions = {
    ...(v.seed !== undefined ? { seed: integer(v.seed, '--seed', 0) } : {}),
    ...(v.resamples !== undefined ? { resamples: integer(v.resamples, '--resamples', 100) } : {}),
  };
  const [fileA, fileB] = positionals as [string, string];
  for (const f of [fileA, fileB]) {
    try {
      formatOf(f);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  const fullA = path.resolve(io.cwd, fileA);
  const fullB = path.resolve(io.cwd, fileB);
  const signal = io.signal ? { signal: io.signal } : {};
  let paired;
  try {
    paired = await pairResults(
      () => readDataset(fullA, signal),
      () => readDataset(fullB, signal),
    );
  } catch (e) {
    throw new UsageError((e as Error).message.split(fullA).join(fileA).split(fullB).join(fileB));
  }
  if (!paired.ok) {
    io.stderr(`judge-studio compare: ${paired.error}\n`);
    return EXIT_USAGE;
  }
  const log = (m: string) => io.stderr(`judge-studio compare: ${m}\n`);
  if (paired.onlyA.length > 0) log(`${paired.onlyA.length} row(s) only in ${fileA} are not compared (${list(paired.onlyA)})`);
  if (paired.onlyB.length > 0) log(`${paired.onlyB.length} row(s) only in ${fileB} are not compared (${list(paired.onlyB)})`);
  if (paired.unusableA + paired.unusableB > 0) log(`lines without a "_row" or unreadable: ${paired.unusableA} in ${fileA}, ${paired.unusableB} in ${fileB}`);
  if (paired.pairs.length === 0) throw new UsageError(`${fileA} and ${fileB} share no "_row"; compare two runs of the same dataset`);

  const outcome = await compareRuns(paired.pairs, { metricA: metric, ...(v['metric-b'] ? { metricB: v['metric-b'] } : {}), bootstrap });
  if (!outcome.ok) throw new UsageError(outcome.error);
  const { report, labelled } = outcome;
  const figure: FigureName = gate !== undefined && isFigureName(gate) ? gate : 'balanced_accuracy';
  const sig = significance(report, labelled, figure, bootstrap);
  if (v.json) io.stdout(`${JSON.stringify(compareJson(report), null, 2)}\n`);
  else io.stdout(formatCompare(report, sig, { a: fileA, b: fileB }));
  if (gate === undefined) return EXIT_OK;
  if (sig.direction === 'no-labels') {
    log(`--fail-if-worse ${gate}: the paired rows have no human labels, so B cannot be tested against A`);
    return EXIT_USAGE;
  }
  if (sig.a === null || sig.b === null) {
    log(`--fail-if-worse ${gate}: the figure is undefined on these rows (all labels equal?); nothing to test`);
    return EXIT_USAGE;
  }
  if (sig.direction === 'worse') {
    log(`B is significantly worse than A on ${gate}`);
    return EXIT_FINDINGS;
  }
  return EXIT_OK;
};

function list(rows: number[]): string {
  return rows.slice(0, 10).join(', ') + (rows.length > 10 ? ', …' : '');
}

function integer(text: string, flag: string, min: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min) throw new UsageError(`${flag} needs an integer ≥ ${min}, got "${text}"`);
  return n;
}
