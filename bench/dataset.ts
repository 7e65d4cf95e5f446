// One row with a 50 MB field (BENCH_FIELD_MB), judged as a user judges it: `judge-studio run` of
// an example template against the local test server, as a process. The figure is that process's
// peak resident memory (its own ru_maxrss, start-up included), best of BENCH_RUNS.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { best, CLI, ok, ROOT, runNode, runs, size, spread, startFake, tempDir, type Figure } from './measure';

const TARGET_MB = 300;

export async function bigFieldFigures(): Promise<Figure[]> {
  const fieldMb = size('BENCH_FIELD_MB', 50);
  const { dir, remove } = tempDir('field');
  const fake = await startFake(['--latency', '0']);
  try {
    const data = path.join(dir, 'big.jsonl');
    const response = 'All work and no play. '.repeat(Math.ceil((fieldMb * 1e6) / 22)).slice(0, fieldMb * 1e6);
    fs.writeFileSync(data, `${JSON.stringify({ prompt: 'Summarise the text.', response })}\n`);
    const template = path.join(ROOT, 'examples', 'helpfulness.judge');
    const peaks: number[] = [];
    for (let i = 0; i < runs(); i++) {
      const out = path.join(dir, `results-${i}.jsonl`);
      const run = ok(
        await runNode(CLI, ['run', template, '--data', data, '--base-url', fake.baseURL, '--model', 'bench', '--out', out, '--no-cache'], { env: { OPENAI_API_KEY: 'bench-key' } }),
        'judge-studio run (one 50 MB row)',
      );
      const line = fs.readFileSync(out, 'utf8');
      if (!line.includes('"helpfulness/score"') || line.length < fieldMb * 1e6) throw new Error(`the results line is not the judged row: ${run.stderr.slice(0, 500)}`);
      fs.rmSync(out);
      peaks.push(run.maxRssMb);
    }
    const peak = best(peaks);
    return [
      {
        work: `one row with a ${fieldMb} MB field, whole CLI run, peak RSS`,
        value: `${peak.toFixed(0)} MB`,
        target: `≤ ${TARGET_MB} MB`,
        pass: peak <= TARGET_MB,
        note: `runs: ${spread(peaks, 0, ' MB')}`,
      },
    ];
  } finally {
    fake.close();
    remove();
  }
}
