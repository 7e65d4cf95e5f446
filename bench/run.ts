// `npm run bench`: every figure of the performance targets, measured the way a user meets them
// (the CLI as a process, against the local test server, beside a floor measured in the same run),
// printed as a table with its target and PASS or MISS. Exit code 1 when a target is missed.
//   BENCH_ONLY=calibrate,validate   run some sections (names below)
//   BENCH_RUNS=3                    runs per measurement (the best counts; all are printed)
//   sizes: BENCH_CALIBRATE_ROWS, BENCH_CALLS, BENCH_CPU_ROWS, BENCH_RATE_ROWS, BENCH_FIELD_MB
//   BENCH_RATE_RUNS=9               runs per rate-limit server (never fewer than 9)
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Figure } from './measure';

interface Section {
  name: string;
  /** File name under bench/, without extension, and the function it exports. */
  file: string;
  fn: string;
}

export const SECTIONS: Section[] = [
  { name: 'request', file: 'requestFigures', fn: 'requestFigures' },
  { name: 'rate', file: 'requestFigures', fn: 'rateFigures' },
  { name: 'calibrate', file: 'calibrate', fn: 'calibrateFigures' },
  { name: 'validate', file: 'template', fn: 'validateFigures' },
  { name: 'field', file: 'dataset', fn: 'bigFieldFigures' },
  { name: 'editor', file: 'editor', fn: 'editorFigures' },
];

const mark = (f: Figure): string => (f.pass === undefined ? 'n/a' : f.pass ? 'PASS' : 'MISS');

function table(figures: readonly Figure[]): string {
  const rows = figures.map((f) => [f.work, f.value, f.target, mark(f)]);
  const head = ['work', 'measured', 'target', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** Runs the sections found in `dir` (the compiled bench folder); returns the figures and how many sections failed. */
export async function runBenches(dir: string, log: (line: string) => void = console.log): Promise<{ figures: Figure[]; failed: number }> {
  const only = (process.env['BENCH_ONLY'] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const figures: Figure[] = [];
  let failed = 0;
  for (const { name, file, fn } of SECTIONS) {
    if (only.length > 0 && !only.includes(name)) continue;
    const compiled = path.join(dir, `${file}.js`);
    log(`\n== ${name} (bench/${file}.ts) ==`);
    try {
      if (!fs.existsSync(compiled)) throw new Error(`bench/${file}.ts is not compiled (npm run compile-tests)`);
      const mod = require(compiled) as Record<string, unknown>;
      const bench = mod[fn];
      if (typeof bench !== 'function') throw new Error(`bench/${file}.ts does not export ${fn}()`);
      const started = performance.now();
      const found = (await (bench as () => Promise<Figure[]>)()) ?? [];
      for (const f of found) log(`${mark(f).padEnd(4)}  ${f.work}: ${f.value} (target ${f.target})${f.note ? `\n      ${f.note}` : ''}`);
      log(`      [${((performance.now() - started) / 1000).toFixed(0)} s]`);
      figures.push(...found);
    } catch (e) {
      failed++;
      log(`FAILED: ${(e as Error).stack ?? e}`);
      figures.push({ work: `${name}: the bench failed`, value: 'error', target: '-', pass: false, note: String(e) });
    }
  }
  log(`\n${table(figures)}`);
  return { figures, failed };
}

if (require.main === module) {
  runBenches(__dirname).then(
    ({ figures, failed }) => {
      process.exitCode = failed > 0 || figures.some((f) => f.pass === false) ? 1 : 0;
    },
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
