// `--junit F` and `--summary F` for calibrate and compare: JUnit XML written to F (its folder made
// when missing), and the Markdown summary appended to `--summary F` or, when that is not given,
// to `$GITHUB_STEP_SUMMARY` when it is set (GitHub Actions shows that file on the run's page).
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { junitTimestamp } from '../core/ci/junit';
import { UsageError, type CliIO } from './io';

export interface CiTargets {
  junit?: string;
  summary?: string;
  started: Date;
}

export function ciTargets(io: CliIO, values: { junit?: string | undefined; summary?: string | undefined }): CiTargets {
  for (const flag of ['junit', 'summary'] as const) {
    if (values[flag] !== undefined && values[flag].trim() === '') throw new UsageError(`--${flag} needs a file name`);
  }
  const summary = values.summary ?? (io.env['GITHUB_STEP_SUMMARY']?.trim() || undefined);
  return { ...(values.junit !== undefined ? { junit: values.junit } : {}), ...(summary !== undefined ? { summary } : {}), started: new Date() };
}

export function ciClock(t: CiTargets): { time: number; timestamp: string } {
  return { time: (Date.now() - t.started.getTime()) / 1000, timestamp: junitTimestamp(t.started) };
}

/** Writes what was asked for; `junit` and `summary` build the texts only when their file was named. */
export async function writeCi(io: CliIO, t: CiTargets, texts: { junit: () => string; summary: () => string }): Promise<void> {
  if (t.junit !== undefined) await put(io, t.junit, texts.junit(), 'junit', false);
  if (t.summary !== undefined) await put(io, t.summary, texts.summary(), 'summary', true);
}

async function put(io: CliIO, file: string, text: string, flag: string, append: boolean): Promise<void> {
  const full = path.resolve(io.cwd, file);
  try {
    await fs.mkdir(path.dirname(full), { recursive: true });
    await (append ? fs.appendFile(full, text, 'utf8') : fs.writeFile(full, text, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot write the ${flag} file ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}
