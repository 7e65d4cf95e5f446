// Stand-in judges for `align` against the local fake server, answering by rules: a pass/fail judge
// that fails every terse answer unless the prompt shows an example of a terse answer (the
// systematic error examples can fix), a judge whose errors are noise (only an example of the very
// row it judges changes its mind), and an author model. Also `rules`, for running the fake server
// by hand on examples/short_answers.jsonl (see docs/align.md).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { reply, type FakeRule, type RecordedRequest } from './fakeOpenAI';

/** ≤ 3 words: "Ottawa.", "Carbon dioxide.", "The Pacific." */
export function isTerse(response: string): boolean {
  return response.trim().split(/\s+/).filter(Boolean).length <= 3;
}

function schemaName(r: RecordedRequest): string | undefined {
  return r.body?.response_format?.json_schema?.name;
}

/** The text of the prompt's last `<tag>…</tag>`: the judged row's field. */
function lastTagged(prompt: string, tag: string): string {
  const all = [...prompt.matchAll(new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`, 'g'))];
  return all.length > 0 ? all[all.length - 1]![1]!.trim() : '';
}

/** The judged answer. */
export function judgedResponse(prompt: string): string {
  return lastTagged(prompt, 'response');
}

/** Truth tables are keyed by question and answer: two questions can share an answer ("Six."). */
export function caseKey(prompt: string, response: string): string {
  return `${prompt}\u0000${response}`;
}

function judgedCase(prompt: string): string {
  return caseKey(lastTagged(prompt, 'prompt'), lastTagged(prompt, 'response'));
}

/** Answers shown as examples: the `Response: …` lines of the Examples section, with their expected score. */
export function exampleResponses(prompt: string): { response: string; score: number | undefined }[] {
  const out: { response: string; score: number | undefined }[] = [];
  const re = /^Response: (.*)\n\n```json\n(.*)\n```/gm;
  for (const m of prompt.matchAll(re)) {
    let score: number | undefined;
    try {
      score = (JSON.parse(m[2]!) as { score?: number }).score;
    } catch {
      score = undefined;
    }
    out.push({ response: m[1]!.trim(), score });
  }
  return out;
}

const isJudgeRequest = (r: RecordedRequest) => (schemaName(r) ?? '').startsWith('judge_studio_align') === false;

/** A judge that knows the truth (`truth`: caseKey → 0/1) but fails terse answers unless an example of a terse correct answer is shown. */
export function terseBiasedJudge(truth: ReadonlyMap<string, number>): FakeRule {
  return (r) => {
    if (!isJudgeRequest(r)) return undefined;
    const response = judgedResponse(r.prompt);
    const right = truth.get(judgedCase(r.prompt));
    if (right === undefined) return undefined;
    const learnt = exampleResponses(r.prompt).some((e) => isTerse(e.response) && e.score === 1);
    const score = isTerse(response) && !learnt ? 0 : right;
    return reply({ justification: score === 1 ? 'The answer gives the right fact.' : 'The answer is too short to show it is right.', score });
  };
}

/** A judge wrong on a fixed quarter of the rows (by a hash of the answer), whatever the prompt says, except a row it is shown as an example. */
export function noisyJudge(truth: ReadonlyMap<string, number>): FakeRule {
  return (r) => {
    if (!isJudgeRequest(r)) return undefined;
    const response = judgedResponse(r.prompt);
    const right = truth.get(judgedCase(r.prompt));
    if (right === undefined) return undefined;
    const copied = exampleResponses(r.prompt).find((e) => e.response === response);
    const score = copied?.score !== undefined ? copied.score : hash(response) % 4 === 0 ? 1 - right : right;
    return reply({ justification: 'Judged by the noisy stand-in.', score });
  };
}

/** The author model: a justification, or one clarification (its text overridable, to test the held-out guard). */
export function authorModel(clarification = 'A correct fact stated in one or two words is still correct: length is not part of the criteria.'): FakeRule {
  return (r) => {
    const name = schemaName(r);
    if (name === 'judge_studio_align_justification') return reply({ justification: 'The answer states the fact the question asks for, and nothing in it contradicts that fact.' });
    if (name === 'judge_studio_align_rubric') return reply({ section: 'rubric', clarifications: [clarification] });
    return undefined;
  };
}

export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** caseKey → human rating of examples/short_answers.jsonl. */
export function shortAnswersTruth(file = path.resolve(__dirname, '../../../examples/short_answers.jsonl')): Map<string, number> {
  const truth = new Map<string, number>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as { prompt: string; response: string; 'correct_answer/human_rating': number };
    truth.set(caseKey(row.prompt, row.response), row['correct_answer/human_rating']);
  }
  return truth;
}

/** For `node out/test/support/fakeOpenAI.js --rules out/test/support/alignFixtures.js`: the stand-in judge of docs/align.md. */
export const rules: FakeRule[] = [authorModel(), terseBiasedJudge(shortAnswersTruth())];
