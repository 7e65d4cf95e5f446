// promptfoo's default grading prompts, reproduced so that `judge-studio import promptfoo` sends what
// promptfoo would send when a config does not override `rubricPrompt`.
//
// Source: promptfoo (https://github.com/promptfoo/promptfoo), src/prompts/grading.ts and
// src/prompts/index.ts (DEFAULT_GRADING_PROMPT, OPENAI_CLOSED_QA_PROMPT, GEVAL_PROMPT_EVALUATE).
// promptfoo is MIT licensed; this text is its authors' work, not Judge Studio's. promptfoo changes
// these prompts between releases: compare with the version you use, or set `rubricPrompt` in your
// config, which the importer then uses instead. This is the only file that holds promptfoo's text.

export interface ChatPromptText {
  role: 'system' | 'user';
  content: string;
}

/** llm-rubric (DEFAULT_GRADING_PROMPT): Nunjucks variables `output` and `rubric`. */
export const PROMPTFOO_LLM_RUBRIC: ChatPromptText[] = [
  {
    role: 'system',
    content: `You are grading output according to a user-specified rubric. If the statement in the rubric is true, then the output passes the test. You respond with a JSON object with this structure: {pass: boolean; reason: string;}.

Examples:

Output: Hello world
Rubric: Content contains a greeting
{"reason": "the content contains the word 'world'", "pass": true, "score": 1.0}

Output: Avast ye swabs, repel the invaders!
Rubric: Does not speak like a pirate
{"reason": "'avast ye' is a common pirate term", "pass": false, "score": 0.0}`,
  },
  { role: 'user', content: '<Output>\n{{ output }}\n</Output>\n<Rubric>\n{{ rubric }}\n</Rubric>' },
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

/** g-eval, second step (GEVAL_PROMPT_EVALUATE): variables `criteria`, `steps`, `maxScore`, `input`, `output`. */
export const PROMPTFOO_GEVAL_EVALUATE = `
You will be given one Reply for a Source Text below. Your task is to rate the Reply on one metric.
Please make sure you read and understand these instructions carefully. Please keep this document open while reviewing, and refer to it as needed.

Evaluation Criteria:
{{criteria}}

Evaluation Steps:
- {{steps}}
- Given the evaluation steps, return a JSON with two keys: 1) a "score" key ranging from 0 - {{maxScore}}, with {{maxScore}} being that it follows the Evaluation Criteria outlined in the Evaluation Steps and 0 being that it does not; 2) a "reason" key, a reason for the given score, but DO NOT QUOTE THE SCORE in your reason. Please mention specific information from Source Text and Reply in your reason, but be very concise with it!

Source Text:
{{input}}

Reply:
{{output}}

**
IMPORTANT: Please make sure to only return in minified JSON format, with the "score" and "reason" key. No additional words, explanation or formatting is needed.

Example JSON:
{"score":0,"reason":"The text does not follow the evaluation steps provided."}
**

JSON:
`;
