// Fake-server rules and replies for rubric and step generation (tests and the e2e runs).
import { reply, type FakeRule, type RecordedRequest } from './fakeOpenAI';

/** The generation kind a request asks for, from its structured-output name or its wording. */
export function generateKindOf(r: RecordedRequest): 'rubric' | 'steps' | undefined {
  const name = r.body?.response_format?.json_schema?.name ?? '';
  if (name === 'judge_studio_rubric' || /Write a rating rubric/.test(r.prompt)) return 'rubric';
  if (name === 'judge_studio_steps' || /Write 3 to 6 evaluation steps/.test(r.prompt)) return 'steps';
  return undefined;
}

/** Counts as words: the rubric-vague lint strips digits, so levels must differ in words. */
const WORDS = ['none', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/** A rubric that covers `min..max`, each level concrete and different from its neighbours. */
export function rubricReply(min: number, max: number, skip?: number): Record<string, unknown> {
  const levels = [];
  for (let s = max; s >= min; s--) {
    if (s === skip) continue;
    levels.push({
      score: s,
      label: `Level ${s}`,
      description: `The response meets ${WORDS[s - min] ?? s} of the ${WORDS[max - min] ?? max} requirements in the prompt.`,
      distinguishing: `Level ${s === min ? s + 1 : s - 1} meets ${WORDS[(s === min ? s + 1 : s - 1) - min] ?? ''} instead.`,
    });
  }
  return {
    levels,
    edge_cases: ['An empty response scores the lowest level.', '2 answers in one reply: score the better one.'],
    guidelines: ['When between two levels, choose the lower one.'],
  };
}

export const STEPS_REPLY = {
  steps: [
    'Read the prompt and list what the user asked for.',
    'Check each claim in the response against the prompt.',
    'Note what the response leaves out.',
    'Write your justification first, then the score.',
  ],
};

/** Answers generation requests with a valid rubric (read from the scale in the prompt) or steps. */
export function generateJudge(): FakeRule {
  return (r) => {
    const kind = generateKindOf(r);
    if (kind === 'steps') return reply(STEPS_REPLY);
    if (kind !== 'rubric') return undefined;
    const m = /integer scale (-?\d+) to (-?\d+)/.exec(r.prompt);
    return reply(rubricReply(Number(m?.[1] ?? 1), Number(m?.[2] ?? 5)));
  };
}
