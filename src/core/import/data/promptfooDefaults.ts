// promptfoo's default grading prompts, as promptfoo 0.121.20 sends them (the newest release that runs
// on Node 20: its engines are "^20.20.0 || >=22.22.0"; 0.122 and later need Node 22), so that
// `judge-studio import promptfoo` sends what that release sends when a config does not set `rubricPrompt`.
//
// Source: the promptfoo 0.121.20 npm package (src/prompts/grading.ts and src/prompts/index.ts in
// promptfoo's repository: DEFAULT_GRADING_PROMPT, OPENAI_CLOSED_QA_PROMPT, GEVAL_PROMPT_EVALUATE).
// promptfoo is MIT licensed; this text is its authors' work, not Judge Studio's, and this is the only
// file that holds it. It is data, checked byte for byte: test/unit/import.promptfoo.release.test.ts
// renders imported templates and compares them with test/fixtures/promptfoo-0.121.20/rendered.json,
// which scripts/promptfoo-fixtures.mjs writes with the release's own package. Moving to another
// release: change PROMPTFOO_RELEASE, the fixtures folder and the script's VERSION together, rerun the
// script, and update this text until that test passes.

export const PROMPTFOO_RELEASE = '0.121.20';

export interface ChatPromptText {
  role: 'system' | 'user';
  content: string;
}

/** llm-rubric (DEFAULT_GRADING_PROMPT): Nunjucks variables `output` and `rubric` (and the test's vars). */
export const PROMPTFOO_LLM_RUBRIC: ChatPromptText[] = [
  {
    role: 'system',
    content: `You are grading output according to a user-specified rubric. If the statement in the rubric is true, then the output passes the test. You respond with a JSON object with this structure: {reason: string, pass: boolean, score: number}

Examples:

<Output>Hello world</Output>
<Rubric>Content contains a greeting</Rubric>
{"reason": "the content contains the word 'Hello'", "pass": true, "score": 1.0}

<Output>Avast ye swabs, repel the invaders!</Output>
<Rubric>Does not speak like a pirate</Rubric>
{"reason": "'avast ye' is a common pirate term", "pass": false, "score": 0.0}`,
  },
  {
    role: 'user',
    content: `<Output>
{{ output }}
</Output>
<Rubric>
{{ rubric }}
</Rubric>`,
  },
];

/** model-graded-closedqa (OPENAI_CLOSED_QA_PROMPT, from OpenAI's evals): variables `input`, `completion`, `criteria`. */
export const PROMPTFOO_CLOSED_QA: ChatPromptText[] = [
  {
    role: 'system',
    content: `You are assessing a submitted answer on a given task based on a criterion. Here is the data:
[BEGIN DATA]
***
[Task]: {{input}}
***
[Submission]: {{completion}}
***
[Criterion]: {{criteria}}
***
[END DATA]
Does the submission meet the criterion? First, write out in a step by step manner your reasoning about the criterion to be sure that your conclusion is correct. Avoid simply stating the correct answers at the outset. Then print only the single character "Y" or "N" (without quotes or punctuation) on its own line corresponding to the correct answer. At the end, repeat just the letter again by itself on a new line.

    Reasoning:`,
  },
];

/** g-eval, second call (GEVAL_PROMPT_EVALUATE): variables `criteria`, `steps`, `maxScore`, `input`, `output` only. */
export const PROMPTFOO_GEVAL_EVALUATE = `
You will be given one Reply for a Prompt below. Your task is to rate the Reply on one metric.
Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.

**Evaluation Criteria**
{{criteria}}

**Evaluation Steps**
- {{steps}}
Given the evaluation steps, return a JSON with two keys: 
  1) a "score" key that MUST be an integer from 0 to {{maxScore}}, where {{maxScore}} indicates that the condition described by the Evaluation Criteria is fully and clearly observed in the Reply according to the Evaluation Steps, and 0 indicates that it is not observed at all;
  2) a "reason" key, a reason for the given score, but DO NOT QUOTE THE SCORE in your reason. Please mention specific information from Prompt and Reply in your reason, but be very concise with it!

**Prompt**
{{input}}

**Reply**
{{output}}

**OUTPUT FORMAT**
IMPORTANT: 
- Return output ONLY as a minified JSON object (no code fences).
- The JSON object must contain exactly two keys: "score" and "reason".
- No additional words, explanations, or formatting are needed.
- Absolutely no additional text, explanations, line breaks, or formatting outside the JSON object are allowed.

Example JSON:
{"score":0,"reason":"The text of reply does not follow the evaluation criteria provided."}

Here is the final evaluation in the required minified JSON format:
JSON:
`;
