// RunStats.countRow: the one place run and batch collect count a written row.
import * as assert from 'node:assert/strict';
import { RunStats } from '../../src/core/judge/run/stats';

describe('RunStats.countRow', () => {
  it('counts ok rows, and failed rows under their error kind', () => {
    const stats = new RunStats(() => 0);
    stats.countRow({ status: 'ok' });
    stats.countRow({ status: 'failed', kind: 'timeout' });
    stats.countRow({ status: 'failed', kind: 'timeout' });
    stats.countRow({ status: 'failed', kind: 'invalid-reply' });
    assert.deepEqual({ done: stats.done, ok: stats.ok, failed: stats.failed, byKind: stats.failedByKind }, { done: 4, ok: 1, failed: 3, byKind: { timeout: 2, 'invalid-reply': 1 } });
  });
});
