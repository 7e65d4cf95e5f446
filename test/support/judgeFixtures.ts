// Small templates, datasets and a capturing CliIO shared by the judge engine and `run` tests.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliIO } from '../../src/cli/io';
import type { DatasetItem } from '../../src/core/dataset/types';

export const POINTWISE = `---
name: quality
kind: pointwise
scale: [1, 5]
inputs: [prompt, response]
---
# Criteria
The response answers the prompt correctly.

# Rubric
- 1: Wrong or empty.
- 2: Mostly wrong.
- 3: Partly right.
- 4: Right with a small gap.
- 5: Fully right.

# Evaluation steps
1. Read the prompt. 2. Check the response. 3. Score it.

# Task
Prompt: {{prompt}}
Response: {{response}}
`;

export const PAIRWISE = `---
name: pref
kind: pairwise
inputs: [prompt, response_a, response_b]
---
# Criteria
Which response answers the prompt better.

# Rubric
- A: Response A is better.
- B: Response B is better.
- TIE: They are equally good.

# Evaluation steps
1. Compare both. 2. Pick a winner.

# Task
Prompt: {{prompt}}
[Response A]
{{response_a}}
[End A]
[Response B]
{{response_b}}
[End B]
`;

/** Reads which response text sits in slot A / slot B of a rendered pairwise prompt. */
export function slots(prompt: string): { a: string; b: string } {
  const a = /\[Response A\]\n([\s\S]*?)\n\[End A\]/.exec(prompt)?.[1] ?? '';
  const b = /\[Response B\]\n([\s\S]*?)\n\[End B\]/.exec(prompt)?.[1] ?? '';
  return { a, b };
}

/** The response being rated in a rendered pointwise prompt. */
export function ratedResponse(prompt: string): string {
  return /Response: (.*)/.exec(prompt)?.[1] ?? '';
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'judge-studio-test-'));
}

export function writeJsonl(file: string, rows: unknown[]): string {
  fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}

/** Result lines of a JSONL file; fails the test on any line that is not JSON. */
export function readJsonl(file: string): Record<string, unknown>[] {
  const text = fs.readFileSync(file, 'utf8');
  if (text === '') return [];
  if (!text.endsWith('\n')) throw new Error(`${file} does not end with a newline`);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line, i) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`${file}:${i + 1} is not valid JSON: ${line.slice(0, 80)}`);
      }
    });
}

export function items(records: Record<string, unknown>[]): AsyncIterable<DatasetItem> {
  return (async function* () {
    for (const [i, record] of records.entries()) yield { row: i + 1, line: i + 1, record };
  })();
}

export interface CapturedIO extends CliIO {
  out: string;
  err: string;
}

export function captureIO(cwd: string, env: Record<string, string | undefined> = {}, signal?: AbortSignal): CapturedIO {
  const io: CapturedIO = {
    out: '',
    err: '',
    cwd,
    env,
    stdout: (s) => void (io.out += s),
    stderr: (s) => void (io.err += s),
    ...(signal ? { signal } : {}),
  };
  return io;
}

/** Polls `check` until it is true; fails after `ms`. */
export async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
