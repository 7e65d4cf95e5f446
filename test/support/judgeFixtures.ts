// Small templates, datasets and a capturing CliIO shared by the judge engine and `run` tests.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CliIO } from '../../src/cli/io';
import type { DatasetItem } from '../../src/core/dataset/types';
import type { TemplateConfig } from '../../src/core/template/types';
import { pairSlots, reply } from './fakeOpenAI';
import type { FakeRule, RecordedRequest } from './fakeOpenAI';

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

// ---- a fake HHH (multi-dimension pairwise) judge for the local test server ----

/** How the fake HHH judge behaves; every reply is derived from the two responses it is shown. */
/** A multi-dimension (HHH) config for tests of the dimensional rules, swap and strategy. */
export const HHH_CONFIG: TemplateConfig = {
  name: 'hhh',
  kind: 'pairwise',
  model: { swap: true },
  dimensions: [
    { name: 'Harmless', description: 'Safety.' },
    { name: 'Honest', description: 'Accuracy.' },
    { name: 'Helpful', description: 'Usefulness.' },
  ],
  ranking: { min: 1, max: 7 },
};

export type HhhBehaviour =
  /** Consistent replies: rankings from length, the higher-ranked response wins. */
  | 'consistent'
  /** Winners get a ranking gap of 3 with "slightly better" (breaks ranking-gap), follow-ups included. */
  | 'break-gap'
  /** Like 'break-gap' until a follow-up quotes the rules, then the consistent reply. */
  | 'fix-on-follow-up'
  /** A position-biased judge: whatever sits in slot A is ranked one higher. */
  | 'slot-a-bias';

/** The fake judge's ranking of one response: longer ranks higher, 2 + 1 per 40 characters, capped at 7. */
export function hhhRank(text: string): number {
  return Math.min(7, 2 + Math.floor(text.length / 40));
}

/** Whether the fake judge calls a response a deflection (it declines the request). */
export function hhhDeflects(text: string): boolean {
  return /\b(?:I can(?:'|no)t|I won't|I'm unable to)\b/i.test(text);
}

/** Degree for a ranking gap, consistent with the ranking-gap rule's table. */
const GAP_DEGREE = ['about the same', 'slightly better', 'slightly better', 'better', 'better', 'significantly better'];

/** Dimension names from the structured-output schema, else from the generated output instruction. */
function dimensionNames(r: RecordedRequest): string[] | undefined {
  const schema = r.body?.response_format?.json_schema?.schema as
    | { properties?: { dimensions?: { properties?: Record<string, unknown> } } }
    | undefined;
  const fromSchema = schema?.properties?.dimensions?.properties;
  if (fromSchema) return Object.keys(fromSchema);
  const listed = /One verdict per dimension, in priority order: (.*)\.\n/.exec(r.prompt)?.[1];
  return listed ? [...listed.matchAll(/"([^"]+)"/g)].map((m) => m[1]!) : undefined;
}

/** True when the last message is the --reask-on-violation follow-up. */
export function isRuleFollowUp(r: RecordedRequest): boolean {
  const last = r.body?.messages?.at(-1);
  return last?.role === 'user' && /breaks the consistency rules/.test(last.content) && r.body!.messages!.some((m) => m.role === 'assistant');
}

/**
 * A fake-server rule answering multi-dimension requests (other requests fall through to the next
 * rule). Reads the two responses from the first user message, so a follow-up gets the same answer.
 */
export function hhhJudge(behaviour: HhhBehaviour = 'consistent'): FakeRule {
  return (r) => {
    const names = dimensionNames(r);
    const task = r.body?.messages?.find((m) => m.role === 'user')?.content;
    const pair = task !== undefined ? pairSlots(task) : undefined;
    if (!names || !pair) return undefined;
    let A = hhhRank(pair.a) + (behaviour === 'slot-a-bias' ? 1 : 0);
    let B = hhhRank(pair.b);
    const winner = A > B ? 'A' : B > A ? 'B' : 'TIE';
    let degree = GAP_DEGREE[Math.min(Math.abs(A - B), GAP_DEGREE.length - 1)]!;
    const breaks = behaviour === 'break-gap' || (behaviour === 'fix-on-follow-up' && !isRuleFollowUp(r));
    if (breaks && winner !== 'TIE') {
      // Gap 3 calls for "better"; "slightly better" breaks exactly one rule (ranking-gap).
      const loser = Math.min(winner === 'A' ? B : A, 4);
      [A, B] = winner === 'A' ? [loser + 3, loser] : [loser, loser + 3];
      degree = 'slightly better';
    }
    const deflection = { A: hhhDeflects(pair.a), B: hhhDeflects(pair.b) };
    const harmless = names.find((n) => n.toLowerCase() === 'harmless') ?? names[0]!;
    const helpful = names[names.length - 1]!;
    const tie = { winner: 'TIE', degree: 'about the same' };
    const dimensions = Object.fromEntries(
      names.map((n) => {
        const wins = n === helpful || (n === harmless && winner !== 'TIE' && deflection[winner]);
        return [n, wins && winner !== 'TIE' ? { winner, degree } : tie];
      }),
    );
    return reply({
      justification: `Response A ranks ${A} and response B ranks ${B} by how completely each answers.`,
      dimensions,
      ranking: { A, B },
      deflection,
      overall: winner === 'TIE' ? tie : { winner, degree },
    });
  };
}

/** The pairwise template as a panel `panel_pref` of the judges named here (`model@endpoint` names an endpoint). */
export function panelTemplate(judges: readonly string[]): string {
  const members = judges.map((j) => {
    const [model, endpoint] = j.split('@');
    return `    - model: ${model}${endpoint ? `\n      endpoint: ${endpoint}` : ''}`;
  });
  return PAIRWISE.replace('name: pref\n', 'name: panel_pref\n').replace(
    'inputs: [prompt, response_a, response_b]\n---',
    `inputs: [prompt, response_a, response_b]\nmodel:\n  judges:\n${members.join('\n')}\n---`,
  );
}
