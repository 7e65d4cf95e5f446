// `npm run bench`: runs every benchmark module that exists, one after another, and prints figures.
// Modules are loaded by name so a module another part has not written yet is reported, not a crash.
import * as fs from 'node:fs';
import * as path from 'node:path';

interface BenchModule {
  /** File name under bench/, without extension. */
  file: string;
  /** The async function it exports. */
  fn: string;
}

export const BENCHES: BenchModule[] = [
  { file: 'template', fn: 'benchTemplate' },
  { file: 'engine', fn: 'benchEngine' },
  { file: 'requestPath', fn: 'benchRequestPath' },
  { file: 'calibrate', fn: 'benchCalibrate' },
  { file: 'dataset', fn: 'benchDataset' },
  { file: 'editor', fn: 'benchEditor' },
];

/** Runs the benches found in `dir` (the compiled bench folder); returns how many failed. */
export async function runBenches(dir: string, log: (line: string) => void = console.log): Promise<number> {
  let failed = 0;
  for (const { file, fn } of BENCHES) {
    const compiled = path.join(dir, `${file}.js`);
    log(`\n== ${file} ==`);
    if (!fs.existsSync(compiled)) {
      log(`not present (bench/${file}.ts)`);
      continue;
    }
    try {
      const mod = require(compiled) as Record<string, unknown>;
      const bench = mod[fn];
      if (typeof bench !== 'function') throw new Error(`bench/${file}.ts does not export ${fn}()`);
      await (bench as () => Promise<void>)();
    } catch (e) {
      failed++;
      log(`FAILED: ${(e as Error).stack ?? e}`);
    }
  }
  return failed;
}

if (require.main === module) {
  runBenches(__dirname).then(
    (failed) => {
      process.exitCode = failed ? 1 : 0;
    },
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
