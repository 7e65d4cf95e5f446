import * as assert from 'node:assert/strict';
import { decodeSelectedValue, jsonObjects, sampleFromSelection, type SelectionTarget } from '../../src/extension/run/model/selection';

const POINT: SelectionTarget = { kind: 'pointwise', pair: ['response_a', 'response_b'], used: new Set(['prompt', 'response']) };
const PAIR: SelectionTarget = { kind: 'pairwise', pair: ['response_a', 'response_b'], used: new Set(['prompt', 'response_a', 'response_b']) };
const VERTEX: SelectionTarget = { kind: 'pairwise', pair: ['baseline_model_response', 'response'], used: new Set(['prompt', 'baseline_model_response', 'response']) };
const BASE = { record: { prompt: 'What is 2+2?', response: 'old answer', id: 'r1' }, label: 'q.jsonl, row 1' };

describe('run model: samples from a selection', () => {
  it('makes plain selected text the response and takes the other used fields from the sample row', () => {
    const s = sampleFromSelection(['  Four.  '], POINT, BASE);
    assert.ok(s.ok);
    assert.deepEqual(s.record, { response: 'Four.', prompt: 'What is 2+2?' });
    assert.equal(s.note, '"response" is the selected text; "prompt" from q.jsonl, row 1');
  });

  it('uses a selected JSON object or JSONL line as the whole record', () => {
    const s = sampleFromSelection(['{"prompt": "Hi", "response": "Hello {there}", "x": 1}'], POINT, BASE);
    assert.ok(s.ok);
    assert.deepEqual(s.record, { prompt: 'Hi', response: 'Hello {there}', x: 1 });
    assert.equal(s.note, 'all fields from the selected JSON object');
  });

  it('fills only the fields a selected object lacks from the sample row', () => {
    const s = sampleFromSelection(['{"response": "Four"}'], POINT, BASE);
    assert.ok(s.ok);
    assert.deepEqual(s.record, { response: 'Four', prompt: 'What is 2+2?' });
  });

  it('leaves missing fields missing when there is no sample row, so rendering names them', () => {
    const s = sampleFromSelection(['Four.'], POINT);
    assert.ok(s.ok);
    assert.deepEqual(s.record, { response: 'Four.' });
  });

  it('turns two selections into responses A and B of a pairwise template, in document order', () => {
    const s = sampleFromSelection(['first', 'second'], PAIR, BASE);
    assert.ok(s.ok);
    assert.equal(s.record.response_a, 'first');
    assert.equal(s.record.response_b, 'second');
    assert.equal(s.record.prompt, 'What is 2+2?');
    assert.ok(!('response' in s.record), 'the base row\'s "response" is not a pairwise field and is not copied');
  });

  it('turns two selected JSONL lines into A and B, sharing the first line\'s prompt', () => {
    const text = '{"prompt": "P", "response": "short"}\n{"prompt": "P2", "response": "a longer one"}';
    const s = sampleFromSelection([text], PAIR);
    assert.ok(s.ok);
    assert.deepEqual(s.record, { prompt: 'P', response_a: 'short', response_b: 'a longer one' });
  });

  it('fills the Vertex AI pair (baseline_model_response, response) from two selections', () => {
    const s = sampleFromSelection(['baseline text', 'candidate text'], VERTEX, BASE);
    assert.ok(s.ok);
    assert.equal(s.record.baseline_model_response, 'baseline text');
    assert.equal(s.record.response, 'candidate text');
  });

  it('takes a pairwise record with every field from one JSON object', () => {
    const s = sampleFromSelection(['{"prompt": "P", "response_a": "a", "response_b": "b"}'], PAIR);
    assert.ok(s.ok);
    assert.deepEqual(s.record, { prompt: 'P', response_a: 'a', response_b: 'b' });
  });

  it('refuses one piece of plain text for a pairwise template and says how to select two', () => {
    const s = sampleFromSelection(['only one'], PAIR);
    assert.ok(!s.ok);
    assert.match(s.message, /two pieces of text/);
    assert.match(s.message, /"response_a"/);
  });

  it('refuses two selections for a pointwise template', () => {
    const s = sampleFromSelection(['a', 'b'], POINT);
    assert.ok(!s.ok);
    assert.match(s.message, /one response/);
  });

  it('refuses an empty selection and more than two selections', () => {
    assert.ok(!sampleFromSelection(['  ', ''], POINT).ok);
    assert.ok(!sampleFromSelection(['a', 'b', 'c'], PAIR).ok);
  });
});

describe('run model: JSON objects in a selection', () => {
  it('splits JSONL, comma-separated objects and an array of objects', () => {
    assert.equal(jsonObjects('{"a":1}\n{"a":2}')?.length, 2);
    assert.equal(jsonObjects('{"a":1}, {"a":2}')?.length, 2);
    assert.deepEqual(jsonObjects('[{"a":1},{"b":[1,2]}]'), [{ a: 1 }, { b: [1, 2] }]);
  });

  it('is not fooled by braces and quotes inside strings', () => {
    assert.deepEqual(jsonObjects('{"t": "a } { \\" b"}'), [{ t: 'a } { " b' }]);
  });

  it('returns undefined for prose, bare values and broken JSON', () => {
    assert.equal(jsonObjects('The answer is {"a": 1}'), undefined);
    assert.equal(jsonObjects('"just a string"'), undefined);
    assert.equal(jsonObjects('{"a": 1'), undefined);
    assert.equal(jsonObjects('{"a": }'), undefined);
    assert.equal(jsonObjects('[1, 2]'), undefined);
  });
});

describe('run model: text highlighted inside a JSONL line', () => {
  const record = { prompt: 'Say "hi"', response: 'Line one\nline "two"' };

  it('means the field value when the selection is exactly that value as JSON writes it', () => {
    assert.equal(decodeSelectedValue('Line one\\nline \\"two\\"', record), 'Line one\nline "two"');
    assert.equal(decodeSelectedValue('Say \\"hi\\"', record), 'Say "hi"');
  });

  it('keeps a partial or plain selection as selected', () => {
    assert.equal(decodeSelectedValue('line \\"two', record), 'line \\"two');
    assert.equal(decodeSelectedValue('Line one', record), 'Line one');
  });
});
