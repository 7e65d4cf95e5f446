// What the Provider Batches view says of a job, from its state file alone.
import * as assert from 'node:assert/strict';
import { APIError } from 'openai';
import { batchErrorMessage, jobPhase, jobView, refreshSummary, resultsFileFor, stateFileName } from '../../src/extension/batchApi/model';
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

  it('says an endpoint has no Batch API when it answers 404 to the Files API, by status, and passes other errors on', () => {
    const notFound = APIError.generate(404, { error: { message: 'no route POST /v1/files' } }, undefined, new Headers());
    const text = batchErrorMessage(notFound, 'http://user:secret@127.0.0.1:11434/v1');
    assert.match(text, /^http:\/\/\*\*\*@127\.0\.0\.1:11434\/v1 has no Batch API \(it answered HTTP 404/);
    assert.ok(!text.includes('secret'), 'credentials in the URL are not shown');
    assert.match(text, /Run Judge on Dataset/);
    const unauthorized = APIError.generate(401, { error: { message: 'bad key' } }, undefined, new Headers());
    assert.ok(!batchErrorMessage(unauthorized, 'https://api.openai.com/v1').includes('no Batch API'));
    assert.equal(batchErrorMessage(new Error('disk full'), 'https://api.openai.com/v1'), 'disk full');
  });

  it('sums up a refresh: each job asked, its phase, progress and collected rows, or why it could not be asked', () => {
    assert.equal(
      refreshSummary([{ metric: 'pref', phase: 'running', progress: '3/10 requests' }, { metric: 'help', phase: 'collected', collected: 8 }, { metric: 'x', error: 'offline' }], 1),
      'Judge Studio: batch status refreshed: pref: running (3/10 requests); help: collected, 8 row(s) collected; x: could not be checked (offline).',
    );
    assert.match(refreshSummary([], 2), /no batch job is waiting \(2 already collected\)/);
    assert.match(refreshSummary([], 0), /there are no batch jobs to refresh/);
  });
});

