// Preloaded into every process a benchmark measures (`node --require probe.js …`): on exit it
// writes the process's own CPU time and peak resident memory to the file the bench names, so the
// figures are the whole process's, start-up included, without a platform tool.
import * as fs from 'node:fs';

const out = process.env['JUDGE_STUDIO_BENCH_PROBE'];
if (out) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    fs.writeFileSync(out, JSON.stringify({ userMs: u.userCPUTime / 1000, systemMs: u.systemCPUTime / 1000, maxRssMb: u.maxRSS / 1024 }));
  });
}
