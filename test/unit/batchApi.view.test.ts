// What the Provider Batches view says of a job, from its state file alone.
import * as assert from 'node:assert/strict';
import { jobPhase, jobView, resultsFileFor, stateFileName } from '../../src/extension/batchApi/model';
import type { BatchEntry, BatchState } from '../../src/core/batch/state';

function state(batches: Partial<BatchEntry>[], extra: Partial<BatchState> = {}): BatchState {
  return {
    version: 1,
    createdAt: '2026-11-30T20:00:00.000Z',
    provider: 'openai',
    baseURL: 'https://api.openai.com/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
    endpoint: '/v1/chat/completions',
    metric: 'pref',
    template: { path: 't.judge', hash: 'h', text: '' },
    data: { path: 'd.jsonl', size: 1, sha256: 'x' },
    settings: { model: 'gpt-4o-mini', structured: 'json_schema', schemaName: 'pref' },
    maxTokensKey: 'max_tokens',
    samples: 1,
    selection: {},
    requestMap: 'r<row>.s<sample>.<order>[.repair]',
    totals: { rows: 10, requests: 20 },
    renderFailures: [],
    submitted: true,
    batches: batches.map((b, i) => ({ part: i + 1, kind: 'main', rows: [1, 10], requests: 20, bytes: 100, ...b })),
    repairs: [],
    ...extra,
  };
}

describe('provider batch view model', () => {
  it('goes from running to ready to collected as the parts finish and are collected', () => {
    assert.equal(jobPhase(state([{ id: 'b1', status: 'in_progress' }])), 'running');
    assert.equal(jobPhase(state([{ id: 'b1', status: 'completed' }])), 'ready');
    assert.equal(jobPhase(state([{ id: 'b1', status: 'completed', collected: true }])), 'collected');
    assert.equal(jobPhase(state([{ id: 'b1', status: 'completed', collected: true }], { repairs: [{ id: 'r1.s0.AB', text: 'x', error: 'e' }] })), 'ready');
    assert.equal(jobPhase(state([], { submitted: false })), 'submitting');
  });

  it('shows request progress while running, and each part with its counts', () => {
    const view = jobView(state([{ id: 'b1', status: 'in_progress', requestCounts: { total: 20, completed: 5, failed: 1 } }]), 'pairs.jsonl');
    assert.equal(view.label, 'pref: running');
    assert.equal(view.description, '6/20 requests · 1 failed · pairs.jsonl · gpt-4o-mini');
    assert.deepEqual(view.details, ['part 1 (rows 1–10): in_progress · 5/20 done, 1 failed']);
  });

  it('keeps the results file beside the state file', () => {
    assert.equal(resultsFileFor('/w/.judge-studio/batches/pref-20261130-201500.json'), '/w/.judge-studio/batches/pref-20261130-201500.results.jsonl');
    assert.equal(stateFileName('pref', new Date('2026-11-30T20:15:00Z')), 'pref-20261130-201500.json');
  });
});
