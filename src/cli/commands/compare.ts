// `judge-studio compare A B --metric M [--metric-b M2] [--json] [--fail-if-worse FIGURE] [--junit F]
// [--summary F]`: two runs
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
  type CompareReport,
  type FigureName,
  type Significance,
} from '../../core/compare';
import { compareErrorJUnit, compareErrorSummary, compareJUnit, compareSummary, gateProblem } from '../../core/compare/ci';
import { ciClock, ciTargets, writeCi } from '../ci';
import { COMPARE_OPTIONS } from '../options/checking';
import { formatOf, readDataset } from '../../core/dataset';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError, type CliIO, type Command } from '../io';

export const compareCommand: Command = async (args, io) => {
  const { values: v, positionals } = parseArgs({
    args,
    options: COMPARE_OPTIONS,
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
  const ci = ciTargets(io, v);
  const meta = () => ({ a: fileA, b: fileB, metric, ...(gate !== undefined && isFigureName(gate) ? { gate } : {}), ...ciClock(ci) });
  let outcome: Compared;
  try {
    outcome = await compareFiles(io, fileA, fileB, { metric, ...(v['metric-b'] ? { metricB: v['metric-b'] } : {}), gate, json: v.json === true, bootstrap });
  } catch (e) {
    // CI still gets a report that says why there are no figures, instead of a missing file.
    if (e instanceof UsageError) await writeCi(io, ci, { junit: () => compareErrorJUnit(e.message, meta()), summary: () => compareErrorSummary(e.message, meta()) });
    throw e;
  }
  if ('error' in outcome) {
    const error = outcome.error;
    await writeCi(io, ci, { junit: () => compareErrorJUnit(error, meta()), summary: () => compareErrorSummary(error, meta()) });
    return outcome.code;
  }
  const { report, sig, text } = outcome;
  await writeCi(io, ci, { junit: () => compareJUnit(report, sig, meta(), text), summary: () => compareSummary(report, sig, meta()) });
  return outcome.code;
};

interface CompareSettings {
  metric: string;
  metricB?: string;
  gate: string | undefined;
  json: boolean;
  bootstrap: BootstrapOptions;
}

type Compared = { code: number; report: CompareReport; sig: Significance; text: string } | { code: number; error: string };

async function compareFiles(io: CliIO, fileA: string, fileB: string, o: CompareSettings): Promise<Compared> {
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
    return { code: EXIT_USAGE, error: paired.error };
  }
  const log = (m: string) => io.stderr(`judge-studio compare: ${m}\n`);
  if (paired.onlyA.length > 0) log(`${paired.onlyA.length} row(s) only in ${fileA} are not compared (${list(paired.onlyA)})`);
  if (paired.onlyB.length > 0) log(`${paired.onlyB.length} row(s) only in ${fileB} are not compared (${list(paired.onlyB)})`);
  if (paired.unusableA + paired.unusableB > 0) log(`lines without a "_row" or unreadable: ${paired.unusableA} in ${fileA}, ${paired.unusableB} in ${fileB}`);
  if (paired.pairs.length === 0) throw new UsageError(`${fileA} and ${fileB} share no "_row"; compare two runs of the same dataset`);

  const outcome = await compareRuns(paired.pairs, { metricA: o.metric, ...(o.metricB ? { metricB: o.metricB } : {}), bootstrap: o.bootstrap });
  if (!outcome.ok) throw new UsageError(outcome.error);
  const { report, labelled } = outcome;
  const figure: FigureName = o.gate !== undefined && isFigureName(o.gate) ? o.gate : 'balanced_accuracy';
  const sig = significance(report, labelled, figure, o.bootstrap);
  const text = formatCompare(report, sig, { a: fileA, b: fileB });
  io.stdout(o.json ? `${JSON.stringify(compareJson(report), null, 2)}\n` : text);
  const done = { report, sig, text };
  if (o.gate === undefined) return { code: EXIT_OK, ...done };
  const problem = gateProblem(sig);
  if (problem) {
    log(`--fail-if-worse ${o.gate}: ${problem}`);
    return { code: EXIT_USAGE, ...done };
  }
  if (sig.direction === 'worse') {
    log(`B is significantly worse than A on ${o.gate}`);
    return { code: EXIT_FINDINGS, ...done };
  }
  return { code: EXIT_OK, ...done };
}

function list(rows: number[]): string {
  return rows.slice(0, 10).join(', ') + (rows.length > 10 ? ', …' : '');
}

function integer(text: string, flag: string, min: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min) throw new UsageError(`${flag} needs an integer ≥ ${min}, got "${text}"`);
  return n;
}
