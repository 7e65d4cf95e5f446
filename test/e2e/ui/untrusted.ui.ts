// Restricted Mode in the real workbench: templates still open as "Judge template" and preview,
// but asking for a judge shows the Restricted Mode message with its trust button, and no
// request leaves (the workspace's own endpoint setting points at a server that records calls).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeOpenAI } from '../../support/fakeOpenAI';
import type { UiContext } from './driver';
import { answer, pick, startCommand, waitForStep } from './quickInput';

const MESSAGE = 'This workspace is in Restricted Mode: Judge Studio does not call a judge here. Trust the folder to run judges (previews and validation still work).';

export const title = 'in Restricted Mode a judge request is refused with a clear message, templates still preview, and Configure Endpoint lists no models';
export const trusted = false;
export const timeoutMs = 120_000;

export async function run(ctx: UiContext): Promise<void> {
  const fake = await FakeOpenAI.start();
  try {
    // An endpoint from the (untrusted) workspace: it must be neither used nor contacted.
    const settingsFile = path.join(ctx.workspace, '.vscode/settings.json');
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, 'judgeStudio.endpoint.baseUrl': fake.baseURL, 'judgeStudio.endpoint.model': 'm' }, null, 2));

    await ctx.openFileFromExplorer('helpfulness.judge');
    await ctx.page.locator('#status\\.editor\\.mode').filter({ hasText: 'Judge template' }).waitFor({ timeout: 20_000 });

    // The run panel's Run Judge asks for a row, then the judge gate refuses.
    await startCommand(ctx.page, 'Judge Studio: Run Judge', 'Judge which row of');
    await pick(ctx.page, 'Row 1');
    await expectRefusal(ctx);
    await ctx.screenshot('untrusted-run-judge-refused');

    // Test Judge Connection passes the same gate (cleared first: VS Code folds identical toasts into one).
    await ctx.runCommand('Notifications: Clear All Notifications');
    await restricted(ctx).waitFor({ state: 'hidden', timeout: 10_000 });
    await ctx.runCommand('Judge Studio: Test Judge Connection');
    await expectRefusal(ctx);
    await ctx.screenshot('untrusted-judge-refused');
    expect(fake.requests.length === 0, `the workspace endpoint was contacted ${fake.requests.length} time(s)`);

    // Previews still work in Restricted Mode (back in the template: the run panel took the focus).
    await ctx.openFileFromExplorer('helpfulness.judge');
    await ctx.runCommand('Judge Studio: Open Preview to the Side');
    const user = await ctx.findInFrames('article.message[data-role="user"] pre.content', 30_000);
    const preview = (await user.textContent()) ?? '';
    expect(preview.includes('How many days are in a leap year?'), `the preview shows row 1; it reads:\n${preview.slice(0, 300)}`);
    await ctx.screenshot('untrusted-preview');
    expect(fake.requests.length === 0, 'opening the preview contacts no endpoint');

    // Configure Endpoint lists no models here: its model step says why, and /v1/models is never asked.
    await startCommand(ctx.page, 'Judge Studio: Configure Endpoint', 'Configure Endpoint (1/3)');
    await pick(ctx.page, 'Other OpenAI-compatible endpoint…');
    await waitForStep(ctx.page, 'Configure Endpoint (2/3)');
    await answer(ctx.page, fake.baseURL);
    await waitForStep(ctx.page, 'Configure Endpoint (3/3)');
    const said = ctx.page.locator('.quick-input-widget .quick-input-message').filter({ hasText: 'models are not listed in Restricted Mode' });
    await said.waitFor({ state: 'visible', timeout: 10_000 });
    await ctx.screenshot('untrusted-configure-endpoint');
    await ctx.page.keyboard.press('Escape'); // cancelled: no user setting written
    expect(!fake.requests.some((r) => r.path === '/v1/models'), 'Configure Endpoint asked the server for its models in Restricted Mode');
    expect(fake.requests.length === 0, `Configure Endpoint contacted the endpoint ${fake.requests.length} time(s)`);
  } finally {
    await fake.close();
  }
}

function restricted(ctx: UiContext) {
  return ctx.page.locator('.notifications-toasts .notification-toast.notification-fade-in-done').filter({ hasText: 'Restricted Mode' });
}

/** The Restricted Mode notification, word for word, with its trust button. */
async function expectRefusal(ctx: UiContext): Promise<void> {
  const toast = restricted(ctx);
  await toast.waitFor({ state: 'visible', timeout: 20_000 });
  const text = (await toast.locator('.notification-list-item-message').textContent()) ?? '';
  expect(text === MESSAGE, `the notification reads: ${text}`);
  await toast.getByRole('button', { name: 'Manage Workspace Trust' }).waitFor({ timeout: 5_000 });
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
