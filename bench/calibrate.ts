// `judge-studio calibrate` on a 1,000,000-row results file (BENCH_CALIBRATE_ROWS), run as a user
// runs it, against the floor: a bare node script making one JSON.parse pass over the same file.
// Both are whole processes (start-up included), alternated, best of BENCH_RUNS. pandas +
// scikit-learn are timed too when python3 has them (Debian: apt install python3-pandas python3-sklearn).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { best, CLI, ok, runNode, runs, size, spread, type Figure, type Run } from './measure';

const METRIC = 'quality';
const RATIO_TARGET = 1.5;
const RSS_TARGET_MB = 300;

/** Writes rows like a pointwise results file (about 270 bytes a row): inputs, verdict, human rating. */
export function writeResults(file: string, rows: number): number {
  const fd = fs.openSync(file, 'w');
  let seed = 42;
  const next = (): number => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  try {
    let chunk: string[] = [];
    for (let i = 1; i <= rows; i++) {
      const human = 1 + Math.floor(next() * 5);
      const score = Math.min(5, Math.max(1, human + Math.floor(next() * 3) - 1));
      const line = {
        prompt: `question ${i}?`,
        response: 'word '.repeat(2 + Math.floor(next() * 20)),
        _row: i,
        _key: (Math.imul(i, 2654435761) >>> 0).toString(16).padStart(16, '0'),
        [`${METRIC}/score`]: score,
        [`${METRIC}/justification`]: 'Answers the question.',
        [`${METRIC}/template_hash`]: '3f9a2b7c1d0e',
        [`${METRIC}/human_rating`]: human,
      };
      chunk.push(JSON.stringify(line));
      if (chunk.length === 10_000) {
        fs.writeSync(fd, chunk.join('\n') + '\n');
        chunk = [];
      }
    }
    if (chunk.length > 0) fs.writeSync(fd, chunk.join('\n') + '\n');
  } finally {
    fs.closeSync(fd);
  }
  return fs.statSync(file).size;
}

/** The floor: what anyone would write to read the file once, one JSON.parse per line. */
const FLOOR = `
const fs = require('node:fs');
let rest = '';
let n = 0;
const stream = fs.createReadStream(process.argv[2], { encoding: 'utf8' });
stream.on('data', (chunk) => {
  const text = rest + chunk;
  let from = 0;
  for (let i = text.indexOf('\\n'); i >= 0; i = text.indexOf('\\n', from)) {
    if (i > from) { JSON.parse(text.slice(from, i)); n++; }
    from = i + 1;
  }
  rest = text.slice(from);
});
stream.on('end', () => {
  if (rest.trim() !== '') { JSON.parse(rest); n++; }
  process.stdout.write(String(n));
});
`;

const PANDAS = `
import sys, time
t = time.time()
import pandas as pd
from sklearn.metrics import accuracy_score, balanced_accuracy_score, cohen_kappa_score, confusion_matrix, f1_score
from scipy.stats import spearmanr, kendalltau
df = pd.read_json(sys.argv[1], lines=True)
df = df.drop_duplicates('_row', keep='last')
h, j = df['${METRIC}/human_rating'], df['${METRIC}/score']
confusion_matrix(h, j); accuracy_score(h, j); balanced_accuracy_score(h, j); f1_score(h, j, average='weighted')
cohen_kappa_score(h, j); cohen_kappa_score(h, j, weights='quadratic'); spearmanr(h, j); kendalltau(h, j)
print(len(df))
`;

/** A python3 with pandas, scikit-learn and scipy (the one on PATH, else Debian's), or undefined. */
function pandasPython(): string | undefined {
  return ['python3', '/usr/bin/python3'].find((py) => spawnSync(py, ['-c', 'import pandas, sklearn, scipy'], { encoding: 'utf8' }).status === 0);
}

function timePandas(python: string, file: string, script: string): { wallMs: number } | undefined {
  const started = performance.now();
  const r = spawnSync(python, [script, file], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) return undefined;
  return { wallMs: performance.now() - started };
}

export async function calibrateFigures(): Promise<Figure[]> {
  const rows = size('BENCH_CALIBRATE_ROWS', 1_000_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'js-bench-calibrate-'));
  try {
    const file = path.join(dir, 'results.jsonl');
    const bytes = writeResults(file, rows);
    const floorScript = path.join(dir, 'floor.js');
    fs.writeFileSync(floorScript, FLOOR);
    const floor: Run[] = [];
    const ours: Run[] = [];
    // Warm the page cache, then alternate so neither gets the quieter moments.
    ok(await runNode(floorScript, [file]), 'the JSON.parse pass');
    for (let i = 0; i < runs(); i++) {
      floor.push(ok(await runNode(floorScript, [file]), 'the JSON.parse pass'));
      ours.push(ok(await runNode(CLI, ['calibrate', file, '--metric', METRIC, '--json']), 'judge-studio calibrate'));
    }
    const report = JSON.parse(ours[0]!.stdout) as { n: number };
    if (report.n !== rows) throw new Error(`calibrate counted ${report.n} of ${rows} rows`);
    const wall = (rs: Run[]) => rs.map((r) => r.wallMs / 1000);
    const ratio = best(wall(ours)) / best(wall(floor));
    const rss = best(ours.map((r) => r.maxRssMb));
    const label = `calibrate ${rows.toLocaleString('en')} rows (${(bytes / 1e6).toFixed(0)} MB)`;
    const figures: Figure[] = [
      {
        work: `${label}, whole CLI vs one JSON.parse pass`,
        value: `${best(wall(ours)).toFixed(2)} s vs ${best(wall(floor)).toFixed(2)} s = ${ratio.toFixed(2)}×`,
        target: `≤ ${RATIO_TARGET}×`,
        pass: ratio <= RATIO_TARGET,
        note: `walls: calibrate ${spread(wall(ours))} s; JSON.parse pass ${spread(wall(floor))} s`,
      },
      {
        work: `${label}, peak RSS of the CLI process`,
        value: `${rss.toFixed(0)} MB`,
        target: `≤ ${RSS_TARGET_MB} MB`,
        pass: rss <= RSS_TARGET_MB,
        note: `runs: ${spread(ours.map((r) => r.maxRssMb), 0, ' MB')}; the JSON.parse pass: ${best(floor.map((r) => r.maxRssMb)).toFixed(0)} MB`,
      },
    ];
    const python = pandasPython();
    if (python) {
      const script = path.join(dir, 'pandas_calibrate.py');
      fs.writeFileSync(script, PANDAS);
      const times = Array.from({ length: runs() }, () => timePandas(python, file, script)?.wallMs ?? NaN).map((ms) => ms / 1000);
      const pandas = best(times);
      figures.push({
        work: `${label}, whole CLI vs pandas + scikit-learn`,
        value: `${best(wall(ours)).toFixed(2)} s vs ${pandas.toFixed(2)} s = ${(best(wall(ours)) / pandas).toFixed(2)}×`,
        target: '≤ 0.5×',
        pass: best(wall(ours)) / pandas <= 0.5,
        note: `pandas walls: ${spread(times)} s`,
      });
    } else {
      figures.push({ work: `${label}, whole CLI vs pandas + scikit-learn`, value: 'not measured', target: '≤ 0.5×', pass: undefined, note: 'python3 without pandas, scikit-learn and scipy' });
    }
    return figures;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
