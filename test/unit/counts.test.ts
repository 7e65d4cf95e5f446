// Counts in messages name what they count, with the right plural.
import { strict as assert } from 'node:assert';
import { countSeverities, joinAnd, plural, severityCounts } from '../../src/core/counts';

describe('counts in messages', () => {
  it('uses the singular for one and the plural otherwise', () => {
    assert.equal(plural(1, 'warning'), '1 warning');
    assert.equal(plural(0, 'warning'), '0 warnings');
    assert.equal(plural(2, 'batch', 'batches'), '2 batches');
  });

  it('joins parts with commas and a final "and"', () => {
    assert.deepEqual([joinAnd([]), joinAnd(['a']), joinAnd(['a', 'b']), joinAnd(['a', 'b', 'c'])], ['', 'a', 'a and b', 'a, b and c']);
  });

  it('says "3 warnings" for three warnings and "1 error and 2 warnings" for a mix, never "problem(s)"', () => {
    assert.equal(severityCounts(countSeverities([{ severity: 'warning' }, { severity: 'warning' }, { severity: 'warning' }])), '3 warnings');
    assert.equal(severityCounts({ error: 1, warning: 2 }), '1 error and 2 warnings');
    assert.equal(severityCounts({}), 'no errors or warnings');
  });
});
