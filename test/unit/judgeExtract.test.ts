import * as assert from 'node:assert/strict';
import { extractJson, removeTrailingCommas, stripThinking } from '../../src/core/judge/strategies/extract';

function value(text: string): unknown {
  const r = extractJson(text);
  assert.ok(r.ok, `expected JSON in ${JSON.stringify(text)}: ${r.ok ? '' : r.error}`);
  return r.value;
}

function failure(text: string): string {
  const r = extractJson(text);
  assert.ok(!r.ok, `expected no JSON in ${JSON.stringify(text)}`);
  return r.error;
}

describe('extractJson', () => {
  it('reads a bare JSON reply', () => {
    const r = extractJson('  {"justification": "ok", "score": 4}\n');
    assert.deepEqual(r, { ok: true, value: { justification: 'ok', score: 4 }, source: 'bare', json: '{"justification": "ok", "score": 4}' });
  });

  it('reads a ```json fence surrounded by prose', () => {
    const r = extractJson('Sure!\n```json\n{"score": 3, "justification": "x"}\n```\nLet me know.');
    assert.ok(r.ok);
    assert.equal(r.source, 'fence');
    assert.deepEqual(r.value, { score: 3, justification: 'x' });
  });

  it('reads an untagged ``` fence', () => {
    assert.deepEqual(value('```\n{"winner": "B"}\n```'), { winner: 'B' });
  });

  it('prefers a json-tagged fence over an earlier untagged one', () => {
    assert.deepEqual(value('```\nnot json\n```\n```json\n{"a": 1}\n```'), { a: 1 });
  });

  it('finds the first balanced object in prose', () => {
    const r = extractJson('My verdict is {"winner": "A", "confidence": 0.9} because A is clearer.');
    assert.ok(r.ok);
    assert.equal(r.source, 'object');
    assert.deepEqual(r.value, { winner: 'A', confidence: 0.9 });
  });

  it('ignores braces inside JSON strings when balancing', () => {
    assert.deepEqual(value('Result: {"justification": "uses } and { and \\" quotes", "score": 2} done'), {
      justification: 'uses } and { and " quotes',
      score: 2,
    });
  });

  it('skips a brace pair in prose that is not JSON and takes the next object', () => {
    assert.deepEqual(value('The set {a, b} differs; answer: {"score": 5, "justification": "j"}'), { score: 5, justification: 'j' });
  });

  it('keeps nested objects whole', () => {
    assert.deepEqual(value('x {"a": {"b": [1, {"c": 2}]}, "score": 1} y'), { a: { b: [1, { c: 2 }] }, score: 1 });
  });

  it('removes trailing commas outside strings', () => {
    assert.deepEqual(value('{"justification": "a, }", "score": 4,}'), { justification: 'a, }', score: 4 });
    assert.deepEqual(value('```json\n{"list": [1, 2,], "score": 1,\n}\n```'), { list: [1, 2], score: 1 });
  });

  it('never changes a comma inside a string', () => {
    assert.equal(removeTrailingCommas('{"a": "x,]", "b": ",}"}'), '{"a": "x,]", "b": ",}"}');
    assert.equal(removeTrailingCommas('{"a": "q\\",}",}'), '{"a": "q\\",}"}');
  });

  it('skips a <think> block before the answer', () => {
    assert.deepEqual(value('<think>The score might be {"score": 1}... no.</think>\n{"score": 4, "justification": "j"}'), {
      score: 4,
      justification: 'j',
    });
  });

  it('skips reasoning whose opening tag the server already removed', () => {
    assert.deepEqual(value('weighing {"score": 2} against 3...</think>{"score": 3, "justification": "j"}'), {
      score: 3,
      justification: 'j',
    });
  });

  it('never takes JSON inside a reasoning block as the verdict', () => {
    assert.deepEqual(extractJson('<think>{"score": 2, "justification": "j"}</think>\nI am done.'), { ok: false, error: 'the reply contains no JSON object' });
    assert.deepEqual(value('<think>maybe {"score": 1, "justification": "x"}</think> {"score": 4, "justification": "y"}'), { score: 4, justification: 'y' });
    assert.equal(extractJson('{"score": 5, "justification": "draft"} <think>no, {"score": 1}').ok, true, 'text before an unclosed block stands');
    assert.equal(extractJson('<think>{"score": 5, "justification": "cut off mid-thought"}').ok, false);
  });

  it('leaves a value with the wrong type as it is for validation to reject', () => {
    assert.deepEqual(value('{"score": "4", "justification": "j"}'), { score: '4', justification: 'j' });
  });

  it('reports an empty reply', () => {
    assert.match(failure('   '), /empty/);
  });

  it('reports a reply without any JSON object', () => {
    assert.match(failure('I would give this a four out of five.'), /no JSON object/);
  });

  it('reports invalid JSON in a fence with the parser message', () => {
    assert.match(failure('```json\n{"score": 4 "justification": "x"}\n```'), /code fence is invalid/);
  });

  it('reports a truncated object as containing no JSON object', () => {
    assert.match(failure('{"justification": "the reply was cut off'), /no JSON object/);
  });
});

describe('stripThinking', () => {
  it('removes every reasoning block, wherever it stands, and keeps the rest verbatim', () => {
    assert.equal(stripThinking('<think>a</think><reasoning>b</reasoning>\nanswer <think>inner</think> end'), '\nanswer  end');
  });
});
