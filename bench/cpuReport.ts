// Preloaded into a benchmarked process (`node -r out/bench/cpuReport.js …`): on exit it writes
// the process's own CPU time and peak RSS to $BENCH_CPU_FILE, so a bench can measure a whole CLI
// run, start-up included, without changing the CLI.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_CPU_FILE;
if (file) {
  process.on('exit', () => {
    const { userCPUTime, systemCPUTime, maxRSS } = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ cpuS: (userCPUTime + systemCPUTime) / 1e6, maxRssMB: maxRSS / 1024 }));
  });
}
