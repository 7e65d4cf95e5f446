// Resuming a dataset run that was cancelled: running it again asks Resume or Start Over in a modal
// dialog, which stays until it is answered (a toast would hide itself within seconds while nothing
// happens), and Resume judges only the rows still missing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { reply, type FakeRule } from '../../support/fakeOpenAI';
import type { UiContext } from './driver';
import { expect, focusEditor, historyRow, withFakeJudge } from './run.ui';

export const title = 'a cancelled dataset run asks Resume or Start Over in a modal dialog, and Resume judges only the missing rows';
export const timeoutMs = 180_000;

export async function run(ctx: UiContext): Promise<void> {
  const dataset = fs.readFileSync(path.join(ctx.workspace, 'helpfulness.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { prompt: string });
  const quick = dataset.slice(0, 2).map((r) => r.prompt);
  let slow = false; // armed once the connection test is done
  // The first two rows answer at once; the others hang until the run is cancelled (then answer at once).
  const rules: FakeRule[] = [(r) => ({ ...reply({ justification: 'Fine.', score: 4 }), delayMs: slow && !quick.some((p) => r.prompt.includes(p)) ? 120_000 : 0 })];
  await withFakeJudge(ctx, rules, async (fake) => {
    slow = true;
    await ctx.openFileFromExplorer('helpfulness.jsonl');
    await focusEditor(ctx);
    await ctx.runCommand('Judge Studio: Run Judge on Dataset');
    const progress = ctx.page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'Judge Studio: helpfulness on helpfulness.jsonl' });
    await progress.filter({ hasText: `2/${dataset.length} rows` }).waitFor({ timeout: 60_000 });
    await progress.getByRole('button', { name: 'Cancel' }).click();
    await historyRow(ctx, /^Last batch: helpfulness\.jsonl/);
    slow = false;
    const sentBefore = fake.chats.length;

    await ctx.runCommand('Notifications: Clear All Notifications');
    // Run it again from the dataset's tab: the question is a modal dialog, not a notification toast.
    await ctx.page.locator('.tabs-container .tab').filter({ has: ctx.page.locator('.label-name', { hasText: /^helpfulness\.jsonl$/ }) }).first().click();
    await focusEditor(ctx);
    await ctx.runCommand('Judge Studio: Run Judge on Dataset');
    const dialog = ctx.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 30_000 });
    const message = (await dialog.locator('.dialog-message-text').textContent()) ?? '';
    expect(/^The last run of helpfulness on helpfulness\.jsonl stopped after \d+ row\(s\)\. Resume it or start over\?$/.test(message), `the dialog asks: ${message}`);
    const detail = (await dialog.locator('.dialog-message-detail').textContent()) ?? '';
    expect(detail.includes('Resume judges only the rows still missing'), `the dialog explains both choices: ${detail}`);
    expect((await ctx.page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'Resume it or start over' }).count()) === 0, 'the question is not a toast');
    await ctx.screenshot('run-resume-modal');
    await dialog.getByRole('button', { name: 'Resume' }).click();

    // Resume judges the rows still missing, into the same results file, which opens at the end.
    const tab = ctx.page.locator('.tabs-container .tab.active').filter({ hasText: /^helpfulness-helpfulness-\d{8}-\d{6}\.jsonl/ });
    await tab.waitFor({ timeout: 60_000 });
    const files = fs.readdirSync(path.join(ctx.workspace, '.judge-studio/results'));
    expect(files.length === 1, `one results file, resumed: ${files.join(', ')}`);
    const resumedRequests = fake.chats.length - sentBefore;
    expect(resumedRequests > 0 && resumedRequests <= dataset.length - 2, `the resumed run judged only missing rows: ${resumedRequests} request(s)`);
    await historyRow(ctx, new RegExp(`^Last batch: helpfulness\\.jsonl.*· ${dataset.length} rows · mean 4`));
    await historyRow(ctx, /^2 row\(s\) kept from the interrupted run$/);
    await ctx.findInFrames(`.toolbar .count:text-is("${dataset.length} of ${dataset.length} rows")`, 30_000);
    await ctx.screenshot('run-resume-done');
  });
}
