// The provider Batch API from the editor, as a person meets it: on an endpoint without one (a local
// server), the submit says "this endpoint has no Batch API" instead of a bare 404; on one that has
// it, the Provider Batches view's Refresh button says what each job is doing, then collects it. A
// submit whose dataset question is dismissed sends nothing and says so in the log.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeBatchServer } from '../../support/fakeBatchServer';
import type { UiContext } from './driver';
import { clearNotifications, message, notification, outcome } from './notifications';
import { pick, startCommand } from './quickInput';
import { expect, judgeAnswers, withFakeJudge } from './run.ui';

export const title = 'the Batch API on an endpoint without one says so, and Refresh Batch Status reports each job and collects it';
export const timeoutMs = 180_000;

export async function run(ctx: UiContext): Promise<void> {
  const { page } = ctx;
  await ctx.openFileFromExplorer('helpfulness.judge');
  await page.locator('#status\\.editor\\.mode').filter({ hasText: 'Judge template' }).waitFor({ timeout: 20_000 });

  // A plain OpenAI-compatible server (chat completions only): no Files or Batches API.
  await withFakeJudge(ctx, [], async () => {
    await page.locator('.tabs-container .tab').filter({ hasText: 'helpfulness.judge' }).first().click();
    await startCommand(page, 'Judge Studio: Run on Dataset via Batch API', 'on which dataset?');
    await pick(page, 'helpfulness.jsonl');
    const text = await message(await notification(ctx, 'has no Batch API', { what: 'the submit to a server without a Batch API' }));
    expect(/has no Batch API \(it answered HTTP 404 to a Files\/Batches request\)/.test(text) && text.includes('Run Judge on Dataset'), `the refusal reads: ${text}`);
    expect(!/404 (page )?not found/i.test(text), 'no bare "404 not found"');
    await ctx.screenshot('batch-api-none');
    await clearNotifications(ctx);

    // Escape on the dataset question submits nothing, and the log says so (Judge Studio: Show Log).
    await startCommand(page, 'Judge Studio: Run on Dataset via Batch API', 'on which dataset?');
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
    await ctx.runCommand('Judge Studio: Show Log');
    await ctx.waitForText('Run on Dataset via Batch API: no dataset was chosen for helpfulness.judge; nothing was done.', { within: '.part.panel', timeoutMs: 20_000 });
    await ctx.screenshot('batch-api-dismissed-log');
    await ctx.runCommand('View: Hide Panel');
  });

  const fake = await FakeBatchServer.start();
  try {
    fake.progressSteps = 2;
    const file = path.join(ctx.workspace, '.vscode/settings.json');
    const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...settings, 'judgeStudio.endpoint.baseUrl': fake.baseURL, 'judgeStudio.endpoint.model': 'fake-judge' }, null, 2));
    await judgeAnswers(ctx);
    await page.locator('.tabs-container .tab').filter({ hasText: 'helpfulness.judge' }).first().click();
    await startCommand(page, 'Judge Studio: Run on Dataset via Batch API', 'on which dataset?');
    await pick(page, 'helpfulness.jsonl');
    await outcome(ctx, /request\(s\) for \d+ row\(s\) sent in 1 batch/, { what: 'Run on Dataset via Batch API' });
    await clearNotifications(ctx);

    // The view's Refresh button: each press says what the job is doing, until it is collected.
    await ctx.runCommand('Judge Studio: Focus on Provider Batches View');
    const pane = page.locator('.pane').filter({ has: page.locator('.pane-header', { hasText: 'Provider Batches' }) });
    await pane.locator('.monaco-list-row', { hasText: 'helpfulness: running' }).waitFor({ timeout: 20_000 });
    const refresh = pane.locator('.pane-header .action-label[aria-label^="Refresh Batch Status"]');
    let said = '';
    for (let press = 1; press <= 6 && !/collected/.test(said); press++) {
      await pane.hover();
      await refresh.click();
      said = await message(await outcome(ctx, 'batch status refreshed', { what: `Refresh Batch Status (press ${press})` }));
      if (press === 1) {
        expect(/^Judge Studio: batch status refreshed: helpfulness: running \(\d+\/\d+ requests\)\.$/.test(said), `the first refresh reports progress: ${said}`);
        await ctx.screenshot('batch-api-refresh-running');
      }
      if (/collected/.test(said)) {
        await pane.locator('.monaco-list-row', { hasText: 'helpfulness: collected' }).waitFor({ timeout: 20_000 });
        await ctx.screenshot('batch-api-refresh-collected');
      }
      await clearNotifications(ctx);
    }
    expect(/helpfulness: collected, 8 row\(s\) collected/.test(said), `the last refresh collected the job: ${said}`);
  } finally {
    await fake.close();
  }
}
