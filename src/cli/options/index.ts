// Every command's table, in the order `judge-studio --help` lists them. main.ts reads it for
// `--help` and `help <command>` without loading the command; the commands parse with the same
// tables; docs/reference/cli.md is generated from it (reference.ts).
import { ALIGN, BATCH, GENERATE, PROBE, RUN } from './judging';
import { CALIBRATE, COMPARE, LABELS, MERGE, RENDER, REPORT, THRESHOLDS, VALIDATE } from './checking';
import { IMPORT, IMPORT_DATA } from './importing';
import type { CommandSpec } from './flags';

export { commandHelp, overview, type CommandSpec } from './flags';

export const SPECS: readonly CommandSpec[] = [VALIDATE, RENDER, RUN, CALIBRATE, COMPARE, REPORT, PROBE, ALIGN, GENERATE, LABELS, THRESHOLDS, MERGE, BATCH, IMPORT, IMPORT_DATA];

export const EXIT_CODES = 'Exit codes: 0 success, 1 findings or failed rows, 2 bad usage or unreadable input.';

export function specOf(name: string): CommandSpec | undefined {
  return SPECS.find((s) => s.name === name);
}

/** What an unknown flag's error (and any other parse error) ends with. */
export function helpHint(name: string): string {
  return `see \`judge-studio ${name} --help\``;
}
