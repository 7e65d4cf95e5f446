// Starters for judge models trained on their own prompt format, served by vLLM or Ollama behind an
// OpenAI-compatible endpoint: Prometheus 2 (absolute and relative grading, `verdict: prometheus`)
// and GLIDER (pass criteria, a rubric and tagged text; reasoning, highlights and a score). Written
// in this project's words after the formats the models document (the prometheus-eval prompts, the
// GLIDER model card); the section names and the reply shape are what the models were trained on.
// The judged text sits in tags so no response can pose as instructions.

export type JudgeModelStarterKind = 'prometheus-absolute' | 'prometheus-relative' | 'glider';

export const JUDGE_MODEL_STARTERS: readonly { kind: JudgeModelStarterKind; label: string; detail: string }[] = [
  { kind: 'prometheus-absolute', label: 'Prometheus 2, absolute grading (1–5)', detail: 'Feedback, then [RESULT] 1–5 against one rubric and a reference answer' },
  { kind: 'prometheus-relative', label: 'Prometheus 2, relative grading (A or B)', detail: 'Feedback, then [RESULT] A or B, both orders' },
  { kind: 'glider', label: 'GLIDER (pass criteria, rubric, score)', detail: 'Reasoning, highlighted phrases and a 1–5 score for tagged text' },
];

const RUBRIC = `[Does the response answer the request correctly and completely?]
Score 1: The response does not answer the request, or what it says is wrong.
Score 2: The response touches the request but misses most of it, or contains an error that misleads.
Score 3: The response answers the main point but leaves out details the user needs.
Score 4: The response answers the request correctly with one small gap that does not mislead.
Score 5: The response answers every part of the request correctly; nothing the user needs is missing.`;

function absolute(name: string): string {
  return `---
name: ${name}
kind: pointwise
description: Prometheus 2 absolute grading — feedback on one criterion, then a score from 1 to 5.
scale: [1, 5]
freeform: true
verdict: prometheus
system: You are a fair judge. You write specific feedback against the rubric you are given, and score by that rubric alone.
inputs: [prompt, response, reference]
model:
  temperature: 0
  max_tokens: 1024
---
###Task Description:
You are given an instruction (it may contain an input), a response to evaluate, a reference answer that would score 5, and a score rubric for one criterion.
1. Write feedback that judges the response strictly by the score rubric, not by general quality.
2. After the feedback, give an integer score from 1 to 5, following the rubric.
3. Use exactly this output format: "Feedback: (your feedback on the criterion) [RESULT] (an integer from 1 to 5)"
4. Write nothing before or after it.

###The instruction to evaluate:
<instruction>
{{prompt}}
</instruction>

###Response to evaluate:
<response>
{{response}}
</response>

###Reference Answer (Score 5):
<reference>
{{reference}}
</reference>

###Score Rubrics:
${RUBRIC}

###Feedback: 
`;
}

function relative(name: string): string {
  return `---
name: ${name}
kind: pairwise
description: Prometheus 2 relative grading — feedback comparing two responses on one criterion, then A or B (judged in both orders).
freeform: true
verdict: prometheus
system: You are a fair judge. You compare two responses against the rubric you are given and say which one meets it better.
inputs: [prompt, response_a, response_b, reference]
model:
  temperature: 0
  max_tokens: 1024
---
###Task Description:
You are given an instruction (it may contain an input), two responses to compare, a reference answer, and a score rubric for one criterion.
1. Write feedback that compares the two responses strictly by the score rubric, not by general quality.
2. After the feedback, choose the better response: A or B.
3. Use exactly this output format: "Feedback: (your feedback comparing the responses) [RESULT] (A or B)"
4. Write nothing before or after it.

###Instruction:
<instruction>
{{prompt}}
</instruction>

###Response A:
<response_a>
{{response_a}}
</response_a>

###Response B:
<response_b>
{{response_b}}
</response_b>

###Reference Answer:
<reference>
{{reference}}
</reference>

###Score Rubric:
${RUBRIC.split('\n')[0]}

###Feedback: 
`;
}

function glider(name: string): string {
  return `---
name: ${name}
kind: pointwise
description: GLIDER — reasoning, the phrases that decided it, and a score from 1 to 5 for the tagged text.
scale: [1, 5]
freeform: true
verdict: {format: regex, pattern: "<score>\\\\s*\\\\[?(?<score>\\\\d+)\\\\]?\\\\s*</score>"}
inputs: [prompt, response]
model:
  temperature: 0
  max_tokens: 1024
---
Read the pass criteria below with care and score the tagged text by the rubric.

To do this evaluation:
1. Understand the tags in the text, the pass criteria and the rubric.
2. Read the text closely, details included.
3. Compare the tagged parts with each score description in the rubric.
4. Watch for small details that could change the score, and tie each one to the pass criteria.
5. Write your reasoning as bullet points.
6. Sum up the strengths and weaknesses of the output, quoting its exact words where it matters.
7. List the words or phrases that most decided the score.
8. Give a final score by the rubric.

Data to evaluate:
<USER_INPUT>
{{prompt}}
</USER_INPUT>
<MODEL_OUTPUT>
{{response}}
</MODEL_OUTPUT>

Pass Criteria:
Does the model output answer the user input correctly and completely?

Rubric:
1: The output does not answer the input, or what it says is wrong.
2: The output misses most of what was asked, or contains a misleading error.
3: The output answers the main point but leaves out details the user needs.
4: The output is correct with one small gap that does not mislead.
5: The output answers every part correctly and completely.

Your output must be in this format:
<reasoning>
[your reasoning, as bullet points]
</reasoning>
<highlight>
[the words or phrases that most decided the score]
</highlight>
<score>
[an integer from 1 to 5]
</score>
`;
}

const POINTWISE_ROWS = [
  { prompt: 'How many days are in a leap year?', response: 'A leap year has 366 days; February gets a 29th day.', reference: '366 days: February has 29 days in a leap year.' },
  { prompt: 'What is the capital of Australia?', response: 'Sydney is the capital of Australia.', reference: 'Canberra.' },
];

const PAIR_ROWS = [
  { prompt: 'How many days are in a leap year?', response_a: 'A leap year has 366 days; February gets a 29th day.', response_b: '365 days.', reference: '366 days.' },
  { prompt: 'What is the capital of Australia?', response_a: 'Sydney.', response_b: 'Canberra is the capital of Australia.', reference: 'Canberra.' },
];

export function judgeModelStarter(kind: JudgeModelStarterKind, name: string): { template: string; dataset: string } {
  const template = kind === 'prometheus-absolute' ? absolute(name) : kind === 'prometheus-relative' ? relative(name) : glider(name);
  const rows = kind === 'prometheus-relative' ? PAIR_ROWS : kind === 'glider' ? POINTWISE_ROWS.map(({ prompt, response }) => ({ prompt, response })) : POINTWISE_ROWS;
  return { template, dataset: rows.map((r) => JSON.stringify(r)).join('\n') + '\n' };
}
