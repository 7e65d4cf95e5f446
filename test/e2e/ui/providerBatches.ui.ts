// The Provider Batches side panel in the real workbench: jobs whose state files were written before
// the window opened (as after a reload) are listed with their status and parts; screenshot.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UiContext } from './driver';

export const title = 'the Provider Batches view lists batch jobs from their state files, with status and parts, after a reload';

function state(name: string, batches: Record<string, unknown>[], createdAt: string): Record<string, unknown> {
  return {
    version: 1,
    createdAt,
    provider: 'openai',
    baseURL: 'http://127.0.0.1:9/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
    endpoint: '/v1/chat/completions',
    metric: name,
    template: { path: '../../fluency_pairwise.judge', hash: 'abc123', text: '' },
    data: { path: '../../fluency_pairwise.jsonl', size: 1, sha256: 'x' },
    settings: { model: 'gpt-4o-mini', structured: 'json_schema', schemaName: name },
    maxTokensKey: 'max_tokens',
    samples: 1,
    selection: {},
    requestMap: 'r<row>.s<sample>.<order>[.repair]',
    totals: { rows: 60000, requests: 120000 },
    renderFailures: [],
    submitted: true,
    batches,
    repairs: [],
  };
}

export async function run(ctx: UiContext): Promise<void> {
  const dir = path.join(ctx.workspace, '.judge-studio', 'batches');
  fs.mkdirSync(dir, { recursive: true });
  const part = (n: number, status: string, done: number, extra: Record<string, unknown> = {}) => ({
    part: n,
    kind: 'main',
    id: `batch_${n}abc`,
    fileId: `file-${n}`,
    rows: [(n - 1) * 25000 + 1, n * 25000],
    requests: 50000,
    bytes: 1e8,
    status,
    requestCounts: { total: 50000, completed: done, failed: 0 },
    ...extra,
  });
  fs.writeFileSync(path.join(dir, 'fluency-20261130-100000.json'), JSON.stringify(state('fluency', [part(1, 'completed', 50000), part(2, 'in_progress', 31000)], '2026-11-30T10:00:00.000Z')));
  fs.writeFileSync(path.join(dir, 'helpfulness-20261129-090000.json'), JSON.stringify(state('helpfulness', [part(1, 'completed', 50000, { collected: true })], '2026-11-29T09:00:00.000Z')));

  await ctx.runCommand('Judge Studio: Focus on Provider Batches View');
  const tree = '.pane:has(.pane-header:has-text("Provider Batches"))';
  await ctx.waitForText('fluency: running', { within: tree });
  await ctx.waitForText(/81000\/100000 requests · fluency_pairwise\.jsonl/, { within: tree });
  await ctx.waitForText('helpfulness: collected', { within: tree });
  await ctx.page.locator(`${tree} .monaco-list-row`, { hasText: 'fluency: running' }).click();
  await ctx.waitForText(/part 2 \(rows 25001–50000\): in_progress · 31000\/50000 done/, { within: tree });
  await ctx.screenshot('provider-batches-view');
}
