// The bundled CLI (dist/cli.js) as a real process, with a deadline that belongs to the test: a
// process still running when it passes is killed and the test fails saying so.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** True when the deadline passed and the process was killed. */
  killed: boolean;
  ms: number;
}

/** Throws when the bundle is missing, so a test says what to do instead of failing obscurely. */
export function requireBundle(): void {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: build it with \`node esbuild.mjs\` first`);
}

/**
 * Runs `judge-studio ARGS` with the given environment on top of this one, minus every variable
 * that could point it at a real endpoint or key (OPENAI_*, JUDGE_STUDIO_BASE_URL), or at a CI
 * job's summary (GITHUB_STEP_SUMMARY: tests run under GitHub Actions must not write into it).
 */
export function runCli(
  args: readonly string[],
  o: { env?: Record<string, string>; cwd?: string; deadlineMs: number; nodeArgs?: readonly string[]; /** Gets the child as it starts (to signal it). */ onSpawn?: (child: ChildProcess) => void },
): Promise<CliResult> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^OPENAI_|^JUDGE_STUDIO_BASE_URL$|^GITHUB_STEP_SUMMARY$/.test(k)));
  const started = Date.now();
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), CLI, ...args], { env: { ...base, ...o.env }, cwd: o.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  o.onSpawn?.(child);
  let stdout = '';
  let stderr = '';
  let killed = false;
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, o.deadlineMs);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, killed, ms: Date.now() - started });
    });
  });
}

/** Node flags that make the CLI child write its peak resident memory (KiB, process.resourceUsage) to `file` as it exits. */
export function peakRssArgs(file: string): { nodeArgs: string[]; env: Record<string, string> } {
  return { nodeArgs: ['--require', path.join(__dirname, 'peakRss.js')], env: { JUDGE_STUDIO_TEST_PEAK_RSS: file } };
}
