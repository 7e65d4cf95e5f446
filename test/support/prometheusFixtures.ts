// A free-form pairwise template in Prometheus's relative-grading layout, shared by the verdict and
// batch parity tests (written in this project's own words).
export function prometheusRelative(name: string): string {
  return `---
name: ${name}
kind: pairwise
freeform: true
verdict: prometheus
inputs: [prompt, response_a, response_b]
---
###Task Description:
Compare the two responses and end with "Feedback: (your feedback) [RESULT] (A or B)".

###Instruction:
{{prompt}}

###Response A:
{{response_a}}

###Response B:
{{response_b}}

###Feedback: 
`;
}
