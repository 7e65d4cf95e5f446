import * as assert from 'node:assert/strict';
import { compileVerdictPattern, findTaggedNumber, findTaggedWinner, REGEX_READ_LIMIT, verdictReader, verdictRule } from '../../src/core/verdict';

describe('verdict formats: reading a verdict from text', () => {
  const point = verdictReader({ format: 'tagged' }, 'pointwise', { min: 1, max: 10 });
  const pair = verdictReader({ format: 'tagged' }, 'pairwise', undefined);

  it('reads the first [[N]] after prose and keeps the text before it as the justification', () => {
    assert.deepEqual(point('The answer is accurate but terse.\n\nRating: [[7]]'), { ok: true, score: 7, justification: 'The answer is accurate but terse.\n\nRating:' });
  });

  it('takes the first [[N]] when several brackets appear, and prefers [[N]] over an earlier [N]', () => {
    assert.equal(findTaggedNumber('See [2] and [3]. Rating: [[6]] (not [[9]])')?.value, 6);
    const v = point('Step [1] fine. Rating: [[4]] then [[8]]');
    assert.ok(v.ok && 'score' in v && v.score === 4);
  });

  it("falls back to the first [N] when no [[N]] is present, as FastChat does", () => {
    const v = point('Mostly right. Rating: [5]');
    assert.ok(v.ok && 'score' in v && v.score === 5);
  });

  it('reads 8.0 as 8 but refuses 7.5 and numbers outside the scale', () => {
    const v = point('ok [[8.0]]');
    assert.ok(v.ok && 'score' in v && v.score === 8);
    assert.deepEqual(point('[[7.5]]'), { ok: false, error: 'the verdict "7.5" is not an integer from 1 to 10' });
    assert.equal(point('[[11]]').ok, false);
    assert.equal(point('[[0]]').ok, false);
  });

  it('reports a missing verdict instead of guessing a score', () => {
    assert.deepEqual(point('I would give it seven out of ten.'), { ok: false, error: 'no verdict in the form [[N]] (or [N]) was found' });
  });

  it('reads [[C]] as a tie and the justification before it', () => {
    assert.deepEqual(pair('Both are equally correct. [[C]]'), { ok: true, winner: 'TIE', justification: 'Both are equally correct.' });
  });

  it("follows FastChat's presence order for pairwise tags: [[A]] anywhere wins over an earlier [[B]]", () => {
    assert.equal(findTaggedWinner('Not [[B]]; final verdict: [[A]]')?.winner, 'A');
    assert.equal(findTaggedWinner('[[C]] or [[B]]? [[B]]')?.winner, 'B');
    assert.equal(findTaggedWinner('A is better. [A]'), undefined);
  });

  it('reads a custom pattern by its named group, a tie word included', () => {
    const r = verdictReader({ format: 'regex', pattern: 'VERDICT: (?<winner>\\w+)', flags: 'i' }, 'pairwise', undefined);
    assert.deepEqual(r('Close call.\nverdict: tie'), { ok: true, winner: 'TIE', justification: 'Close call.' });
    assert.deepEqual(r('VERDICT: maybe'), { ok: false, error: 'the verdict "maybe" is not A, B, TIE or C' });
    const s = verdictReader({ format: 'regex', pattern: 'Score=(?<score>\\d+)' }, 'pointwise', { min: 1, max: 5 });
    assert.deepEqual(s('fine Score=3'), { ok: true, score: 3, justification: 'fine' });
  });

  it('runs a custom pattern on the last REGEX_READ_LIMIT characters only, with offsets into the whole reply', () => {
    const r = verdictReader({ format: 'regex', pattern: 'S=(?<score>\\d)' }, 'pointwise', { min: 1, max: 5 });
    const long = `S=1 ${'x'.repeat(REGEX_READ_LIMIT)} S=4`;
    const v = r(long);
    assert.ok(v.ok && 'score' in v && v.score === 4 && v.justification.startsWith('S=1'));
  });
});

describe('verdict formats: checking a custom pattern', () => {
  it('refuses a pattern that does not compile, a missing named group and unknown flags', () => {
    assert.equal(compileVerdictPattern('(?<score>\\d+', undefined, 'pointwise').ok, false);
    const noGroup = compileVerdictPattern('Score: (\\d+)', undefined, 'pointwise');
    assert.ok(!noGroup.ok && noGroup.code === 'verdict-pattern-invalid' && /\(\?<score>/.test(noGroup.message));
    assert.equal(compileVerdictPattern('(?<winner>A|B)', 'g', 'pairwise').ok, false);
    assert.equal(compileVerdictPattern('(?<winner>A|B)', 'i', 'pairwise').ok, true);
  });

  it('accepts nested repetition, which the linear-time engine runs in bounded time, and the usual patterns', () => {
    for (const p of ['(a+)+(?<score>\\d)', '(?<score>(\\d*)*)', '((x|y)+\\s*){2,}(?<score>\\d)', 'Rating: \\[\\[(?<score>\\d+)\\]\\]', '(ab)+ [(+)]+ (?<score>\\d{1,2})']) {
      assert.equal(compileVerdictPattern(p, undefined, 'pointwise').ok, true, p);
    }
  });

  it('refuses what the linear-time engine cannot run as verdict-pattern-unsupported, naming it', () => {
    for (const [bad, what] of [['(?<score>\\d)\\1', /backreference/], ['(?<score>\\d)\\k<score>', /named backreference/], ['(?=Score)(?<score>\\d)', /lookahead/], ['(?<=Score: )(?<score>\\d)', /lookbehind/], ['(?<!No )(?<score>\\d)', /lookbehind/]] as const) {
      const c = compileVerdictPattern(bad, undefined, 'pointwise');
      assert.ok(!c.ok && c.code === 'verdict-pattern-unsupported', bad);
      assert.match(c.message, what);
    }
  });

  it('refuses a pattern too large to match in bounded time as verdict-pattern-unsafe', () => {
    const huge = compileVerdictPattern('(?<score>(?:[a-z]?){400})', undefined, 'pointwise');
    assert.ok(!huge.ok && huge.code === 'verdict-pattern-unsafe' && /instructions/.test(huge.message));
    const long = compileVerdictPattern(`(?<score>\\d)${'x'.repeat(3000)}`, undefined, 'pointwise');
    assert.ok(!long.ok && long.code === 'verdict-pattern-unsafe');
  });
});

describe('verdict formats: the rule shown to the user', () => {
  it('names the parsing rule of each format', () => {
    assert.match(verdictRule({ format: 'tagged' }, 'pointwise', { min: 1, max: 10 }), /first \[\[N\]\].*else the first \[N\].*1 to 10/);
    assert.match(verdictRule({ format: 'tagged' }, 'pairwise'), /\[\[C\]\] means a tie/);
    assert.match(verdictRule({ format: 'regex', pattern: 'x(?<score>\\d)' }, 'pointwise'), /first match of \/x\(\?<score>\\d\)\//);
    assert.match(verdictRule(undefined, 'pointwise'), /^JSON/);
  });
});
