// Patterns from files run in the linear-time engine with JavaScript's meaning: the same matches as
// RegExp on ordinary verdict patterns, flags i/m/s as before, named groups kept, and the patterns
// that froze V8's backtracking engine answered at once.
import * as assert from 'node:assert/strict';
import { compileBounded, type BoundedRegex } from '../../src/core/security/boundedRegex';

function compiled(pattern: string, flags = ''): BoundedRegex {
  const c = compileBounded(pattern, flags);
  assert.ok(c.ok, c.ok ? '' : c.message);
  return c.regex;
}

/** The match as RegExp gives it: offset and named groups. */
function native(pattern: string, flags: string, text: string) {
  const m = new RegExp(pattern, flags).exec(text);
  return m ? { index: m.index, groups: { ...m.groups } } : undefined;
}

describe('bounded patterns (linear-time engine)', () => {
  it('finds what RegExp finds for the usual verdict patterns, with their named groups', () => {
    const cases: [string, string, string][] = [
      ['Rating: \\[\\[(?<score>\\d+)\\]\\]', '', 'Good answer.\nRating: [[4]]'],
      ['(?<score>[YN])\\s*$', '', 'The answer is right.\nY\n'],
      ['verdict:\\s*(?<winner>A|B|TIE)', 'i', 'Reasons… Verdict: tie'],
      ['^Score:\\s*(?<score>\\d)', 'm', 'intro\nScore: 3\nmore'],
      ['<score>(?<score>\\d+)</score>', '', 'x <score>12</score>'],
      ['Final: (?<winner>[AB])(?:\\.|$)', '', 'Final: B.'],
      ['(?<score>\\d)(?:/10)?\\s*$', '', 'I give it 7/10 '],
      ['(?<winner>A|AB)', '', 'xAB'],
      ['x(?<score>.)y', 's', 'x\ny'],
      ['[^]*?(?<score>\\d)', '', 'ab\n5'],
      ['\\y(?<score>\\d)', '', 'y5'],
      ['(?<score>\\u00e9)', 'i', 'É'],
      ['a\\s(?<score>b)', '', 'a\u00a0b'],
      ['(?<score>[\\s\\S]+)!', '', 'any\nthing!'],
    ];
    for (const [pattern, flags, text] of cases) {
      assert.deepEqual(compiled(pattern, flags).exec(text), native(pattern, flags, text), `/${pattern}/${flags} on ${JSON.stringify(text)}`);
    }
  });

  it('keeps JavaScript\'s meaning of `.` (no line terminators without s) and of ^ and $ without m', () => {
    assert.equal(compiled('x(?<score>.)').exec('x\r'), undefined);
    assert.equal(compiled('x(?<score>.)').exec('x\u2028'), undefined);
    assert.equal(compiled('^(?<score>\\d)$').exec('1\n2'), undefined);
    assert.deepEqual(compiled('^(?<score>\\d)$', 'm').exec('1\n2')?.groups, { score: '1' });
  });

  it('counts offsets in UTF-16 code units, as String.slice does', () => {
    const text = '😀 fine. Score: 5';
    const m = compiled('Score: (?<score>\\d)').exec(text);
    assert.equal(m?.index, text.indexOf('Score'));
  });

  it('reports a group that took no part in the match as undefined', () => {
    assert.deepEqual(compiled('(?:(?<score>\\d)|none)').exec('none')?.groups, { score: undefined });
  });

  it('answers the patterns that froze the backtracking engine at once, on short and long replies', function () {
    this.timeout(5_000); // the deadline is the test's: the product has none and needs none
    for (const p of ['(a|a)+(?<score>\\d)', '(a|aa)+(?<score>\\d)', '([a-z]|a)+(?<score>\\d)', '(a|a?)+(?<score>\\d)', '^(a|a)*(?<score>\\d)X']) {
      const re = compiled(p);
      for (const n of [29, 36, 20_000]) assert.equal(re.exec('a'.repeat(n)), undefined, `${p} on ${n} a's`);
      assert.deepEqual(re.exec(`${'a'.repeat(36)}7X`)?.groups, { score: '7' });
    }
  });

  it('refuses backreferences and lookaround as unsupported, and JavaScript syntax errors as syntax', () => {
    for (const p of ['(?<score>\\d)\\1', '(?<score>\\d)\\k<score>', '(?=a)(?<score>\\d)', '(?!a)(?<score>\\d)', '(?<=a)(?<score>\\d)', '(?<!a)(?<score>\\d)']) {
      const c = compileBounded(p, '');
      assert.ok(!c.ok && c.reason === 'unsupported', p);
    }
    const bad = compileBounded('(?<score>\\d', '');
    assert.ok(!bad.ok && bad.reason === 'syntax');
    const flag = compileBounded('(?<score>\\d)', 'g');
    assert.ok(!flag.ok && flag.reason === 'syntax');
  });

  it('treats a `[` inside a class as a literal, as JavaScript does', () => {
    assert.deepEqual(compiled('(?<score>[[:x]+)').exec('a[:x')?.groups, { score: '[:x' });
  });
});
