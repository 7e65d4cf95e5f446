// Calibration throughput: a 1,000,000-row results file read as a stream. Prints time and memory;
// asserts nothing (the target is under 2 s with memory that does not grow with the rows' text).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { calibrate } from '../src/core/calibration';
import { readDataset, type DatasetItem } from '../src/core/dataset';

const ROWS = 1_000_000;
const METRIC = 'quality';

/** Writes rows like a pointwise results file: human rating, judge score, response text. */
function writeDataset(file: string): number {
  const fd = fs.openSync(file, 'w');
  let seed = 42;
  const next = (): number => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  try {
    let chunk: string[] = [];
    for (let i = 1; i <= ROWS; i++) {
      const human = 1 + Math.floor(next() * 5);
      const score = Math.min(5, Math.max(1, human + Math.floor(next() * 3) - 1));
      const response = 'word '.repeat(2 + Math.floor(next() * 20));
      chunk.push(JSON.stringify({ prompt: `question ${i}`, response, [`${METRIC}/human_rating`]: human, [`${METRIC}/score`]: score }));
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

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function benchCalibrate(): Promise<void> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-calibrate-')), 'results.jsonl');
  try {
    const size = writeDataset(file);
    global.gc?.();
    const before = process.memoryUsage();
    let heapPeak = before.heapUsed;
    let rssPeak = before.rss;
    // Samples the heap every 100,000 rows, so growth with the row count would show.
    async function* sampled(items: AsyncIterable<DatasetItem>): AsyncIterable<DatasetItem> {
      let n = 0;
      for await (const item of items) {
        if (++n % 100_000 === 0) {
          const now = process.memoryUsage();
          heapPeak = Math.max(heapPeak, now.heapUsed);
          rssPeak = Math.max(rssPeak, now.rss);
        }
        yield item;
      }
    }
    const start = performance.now();
    const outcome = await calibrate(sampled(readDataset(file)), METRIC);
    const ms = performance.now() - start;
    if (!outcome.ok) throw new Error(outcome.error);
    const r = outcome.report;
    console.log(
      `calibrate: ${r.n.toLocaleString('en')} rows (${mb(size)}) in ${(ms / 1000).toFixed(2)} s ` +
        `(${Math.round(r.n / (ms / 1000)).toLocaleString('en')} rows/s; target < 2 s)`,
    );
    console.log(
      `  heap before ${mb(before.heapUsed)}, peak ${mb(heapPeak)}; RSS before ${mb(before.rss)}, peak ${mb(rssPeak)} ` +
        '(sampled every 100,000 rows)',
    );
    console.log(`  kappa ${r.cohen_kappa?.toFixed(4)}, spearman ${r.spearman?.toFixed(4)}, kendall tau-b ${r.kendall_tau?.toFixed(4)}`);
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchCalibrate().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
