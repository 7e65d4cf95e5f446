// A `json` verdict whose fields are renamed to another tool's reply: OpenAI's model graders answer
// {"steps": [{description, conclusion}], "result"}. The one json reader takes `result` as the score or
// the label and keeps the steps as the justification; `structured: true` sends that reply's schema and
// counts as asking for it.
import * as assert from 'node:assert/strict';
import { strategyFor } from '../../src/core/judge/strategies/strategy';
import { strategySettings } from '../../src/core/judge/engine/pass';
import { parseTemplate, validateTemplate } from '../../src/core/template';
import { verdictReader, verdictRule } from '../../src/core/verdict';

const SCORE = { format: 'json', fields: { score: 'result', steps: 'steps' }, structured: true } as const;
const LABEL = { format: 'json', fields: { label: 'result', steps: 'steps' }, structured: true } as const;
const STEPS = [
  { description: 'Does the reply name the return window?', conclusion: 'It says thirty days, as the policy does.' },
  { description: 'Is anything promised beyond the policy?', conclusion: 'No.' },
];

const grader = (verdict: string, scoring = 'range: [0, 1]') => `---
name: refund_check
kind: pointwise
${scoring}
freeform: true
verdict: ${verdict}
inputs: [answer]
---
Grade this support answer against the refund policy.
<answer>{{answer}}</answer>
`;

describe('json verdict with renamed fields: OpenAI grader replies', () => {
  it('reads `result` as the score and joins the steps into a numbered justification', () => {
    const read = verdictReader(SCORE, 'pointwise', { min: 0, max: 1, continuous: true });
    assert.deepEqual(read(JSON.stringify({ steps: STEPS, result: 0.9 })), {
      ok: true,
      score: 0.9,
      justification: '1. Does the reply name the return window? — It says thirty days, as the policy does.\n2. Is anything promised beyond the policy? — No.',
    });
  });

  it('reads `result` as a label, exactly as listed', () => {
    const read = verdictReader(LABEL, 'pointwise', undefined, ['pass', 'fail']);
    assert.deepEqual(read(JSON.stringify({ steps: [{ description: 'Window stated', conclusion: 'yes' }], result: 'pass' })), { ok: true, label: 'pass', justification: '1. Window stated — yes' });
    assert.deepEqual(read(JSON.stringify({ steps: [], result: 'Pass' })), { ok: false, error: 'the label "Pass" is not one of "pass", "fail"' });
  });

  it('refuses steps that are not a list of {description, conclusion} objects, so the reply is repaired', () => {
    const read = verdictReader(SCORE, 'pointwise', { min: 0, max: 1, continuous: true });
    for (const steps of ['I checked it.', [1, 2], [{ note: 'x' }]]) {
      const v = read(JSON.stringify({ steps, result: 1 }));
      assert.equal(v.ok, false, JSON.stringify(steps));
      assert.match(v.ok ? '' : v.error, /"steps" field is not a list of steps/);
    }
  });

  it('sends the reply under its own names as the structured-output schema, steps first', () => {
    const strategy = strategyFor(parseTemplate(grader(JSON.stringify(SCORE))).config!);
    const schema = strategy.jsonSchema as { properties: Record<string, { type: string; items?: { required: string[] } }>; required: string[] };
    assert.deepEqual(Object.keys(schema.properties), ['steps', 'result']);
    assert.deepEqual(schema.required, ['steps', 'result']);
    assert.equal(schema.properties.steps!.type, 'array');
    assert.deepEqual(schema.properties.steps!.items!.required, ['description', 'conclusion']);
    assert.equal(strategySettings({ model: 'm', structured: 'json_schema', schemaName: 'x' } as never, strategy).structured, 'json_schema');
    // Without `structured`, a renamed json verdict is read from text and asks for no schema, as before.
    const plain = strategyFor(parseTemplate(grader('{format: json, fields: {score: result}}')).config!);
    assert.equal(strategySettings({ model: 'm', structured: 'json_schema', schemaName: 'x' } as never, plain).structured, 'none');
  });

  it('gives a categorical template the labels as the enum of `result`', () => {
    const strategy = strategyFor(parseTemplate(grader(JSON.stringify(LABEL), 'labels: [pass, fail]')).config!);
    const props = (strategy.jsonSchema as { properties: Record<string, { enum?: string[] }> }).properties;
    assert.deepEqual(props.result!.enum, ['pass', 'fail']);
  });

  it('does not warn verdict-not-asked when structured output asks for the reply, and still does without it', () => {
    const codes = (text: string) => validateTemplate(text).map((d) => d.code);
    assert.ok(!codes(grader(JSON.stringify(SCORE))).includes('verdict-not-asked'));
    assert.ok(codes(grader('{format: json, fields: {score: result}}')).includes('verdict-not-asked'));
  });

  it('refuses `structured` with mapped values, `steps` with `justification`, and `fields.label` without labels', () => {
    const errors = (text: string) => validateTemplate(text).filter((d) => d.severity === 'error').map((d) => d.message).join(' | ');
    assert.match(errors(grader('{format: json, fields: {score: pass}, values: {"true": 1, "false": 0}, structured: true}')), /`structured` asks for a `json` verdict by its JSON schema/);
    assert.match(errors(grader('{format: json, fields: {steps: steps, justification: why}}')), /`steps` and `justification` both name/);
    assert.match(errors(grader('{format: json, fields: {label: result}}')), /`fields.label` names the reply field of a categorical verdict/);
    assert.match(errors(grader('{format: json, fields: {score: result}}', 'labels: [pass, fail]')), /a categorical template replies in JSON/);
  });

  it('states the rule in the preview: result, the steps, and the schema', () => {
    assert.match(verdictRule(LABEL, 'pointwise', undefined, ['pass', 'fail']), /the verdict is the reply's "result" field \(exactly one of "pass", "fail"\); the justification is its "steps" list .*structured output/);
  });

  it('says which labels pass, as it did before the fields were mapped (the import e2e test reads it in the preview)', () => {
    assert.match(verdictRule(LABEL, 'pointwise', undefined, ['pass', 'minor', 'fail'], ['pass', 'minor']), /Passing labels: "pass", "minor"\./);
    assert.doesNotMatch(verdictRule(LABEL, 'pointwise', undefined, ['pass', 'fail']), /Passing labels/);
  });
});
