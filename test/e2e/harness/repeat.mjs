// E2E_REPEAT=N: the whole e2e run (or the tests E2E_GREP picks) N times in a row, each round a
// fresh process with its own output directory, then a flake report. Nothing is retried: a round
// that fails counts as failed, and a test that passed in some rounds and failed in others is named
// as flaky, with the rounds it failed in and the first words of each failure.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MAX_ROUNDS = 1000;

/** The round count E2E_REPEAT asks for: undefined when unset; an error for anything but 1..1000. */
export function parseRepeat(value) {
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || Number(value) > MAX_ROUNDS) {
    throw new Error(`E2E_REPEAT must be a whole number of rounds from 1 to ${MAX_ROUNDS}, not "${value}"`);
  }
  return Number(value);
}

/** Each test's result in each round. */
export class Outcomes {
  constructor() {
    /** name -> [{ round, ok, error }] */
    this.byTest = new Map();
    this.rounds = 0;
    /** rounds whose process ended without reporting (crashed, or stopped before its tests) */
    this.broken = [];
  }

  /** One round's results: [{ name, ok, error? }], or undefined when the round reported nothing. */
  add(round, results, exitCode) {
    this.rounds = Math.max(this.rounds, round);
    if (!results) {
      this.broken.push({ round, exitCode });
      return;
    }
    for (const r of results) {
      const list = this.byTest.get(r.name) ?? [];
      list.push({ round, ok: r.ok, error: r.error });
      this.byTest.set(r.name, list);
    }
  }

  /** Tests that passed in some rounds and failed in others. */
  flaky() {
    return [...this.byTest].filter(([, l]) => l.some((r) => r.ok) && l.some((r) => !r.ok)).map(([name]) => name);
  }

  /** Tests that failed in every round they ran in. */
  broke() {
    return [...this.byTest].filter(([, l]) => l.every((r) => !r.ok)).map(([name]) => name);
  }

  ok() {
    return !this.broken.length && [...this.byTest.values()].every((l) => l.every((r) => r.ok));
  }

  /** The report's lines. */
  report() {
    const lines = [`e2e repeat: ${this.rounds} round(s), ${this.byTest.size} test(s)`];
    for (const [kind, names] of [['flaky', this.flaky()], ['failed every round', this.broke()]]) {
      for (const name of names) {
        const l = this.byTest.get(name);
        const failed = l.filter((r) => !r.ok);
        lines.push(`  ${kind}: ${name}: passed ${l.length - failed.length} of ${l.length}, failed in round(s) ${failed.map((r) => r.round).join(', ')}`);
        for (const f of failed.slice(0, 3)) lines.push(`    round ${f.round}: ${String(f.error ?? '').split('\n')[0].slice(0, 300)}`);
      }
    }
    for (const b of this.broken) lines.push(`  round ${b.round} reported no tests (exit code ${b.exitCode})`);
    const steady = [...this.byTest.values()].filter((l) => l.every((r) => r.ok)).length;
    lines.push(`  passed every round: ${steady} of ${this.byTest.size} test(s)`);
    lines.push(this.ok() ? 'e2e repeat: no flaky test' : `e2e repeat: FAILED (${this.flaky().length} flaky, ${this.broke().length} failed every round)`);
    return lines;
  }
}

/**
 * Runs `script` (scripts/e2e.mjs) `rounds` times, one after another, with E2E_REPEAT removed and
 * E2E_OUTCOMES naming the file each round writes its results to; returns the Outcomes.
 */
export async function repeatRuns(script, rounds, env = process.env) {
  const outcomes = new Outcomes();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'e2e-repeat-'));
  try {
    for (let round = 1; round <= rounds; round++) {
      console.log(`e2e repeat: round ${round} of ${rounds}`);
      const file = path.join(dir, `round-${round}.json`);
      const childEnv = { ...env, E2E_OUTCOMES: file, E2E_ROUND: String(round), E2E_KEEP_RUNS: String(rounds + 5) };
      delete childEnv.E2E_REPEAT;
      const code = await new Promise((resolve) => {
        const child = spawn(process.execPath, [script], { env: childEnv, stdio: 'inherit' });
        child.on('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
      });
      let results;
      try {
        results = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        results = undefined;
      }
      outcomes.add(round, results, code);
      if (code >= 128) break; // interrupted (Ctrl-C, SIGTERM): stop repeating
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return outcomes;
}
