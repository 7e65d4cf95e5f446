// The walkthrough's steps tick as done when a person does them, however they do them: here the
// preview is opened from the palette and the connection tested from the palette, never through
// the walkthrough's own buttons, and both steps show their check mark.
import type { Page } from 'playwright-core';
import type { UiContext } from './driver';
import { pick, typeCommand } from './quickInput';
import { expect } from './run.ui';

export const title = 'walkthrough steps tick as done when their action is taken from the palette';
export const timeoutMs = 120_000;

const PREVIEW = 'Preview what the judge sees';
const ENDPOINT = 'Set a judge endpoint';

export async function run(ctx: UiContext): Promise<void> {
  const { page } = ctx;
  await ctx.openFileFromExplorer('helpfulness.judge');
  await page.locator('#status\\.editor\\.mode').filter({ hasText: 'Judge template' }).waitFor({ timeout: 20_000 });
  await openWalkthrough(page);
  expect(!(await checked(page, PREVIEW)), 'the preview step starts unticked');
  expect(!(await checked(page, ENDPOINT)), 'the endpoint step starts unticked');

  await page.locator('.tabs-container .tab').filter({ hasText: 'helpfulness.judge' }).first().click();
  await ctx.runCommand('Judge Studio: Open Preview to the Side');
  await ctx.findInFrames('article.message[data-role="user"]', 30_000);
  await ctx.runCommand('Judge Studio: Test Judge Connection');

  await page.locator('.tabs-container .tab').filter({ hasText: /Walkthrough|Welcome/ }).first().click();
  await step(page, PREVIEW).locator('.codicon-getting-started-step-checked').waitFor({ timeout: 20_000 }).catch(() => {
    throw new Error(`"${PREVIEW}" did not tick after the preview was opened from the palette`);
  });
  await step(page, ENDPOINT).locator('.codicon-getting-started-step-checked').waitFor({ timeout: 20_000 }).catch(() => {
    throw new Error(`"${ENDPOINT}" did not tick after Test Judge Connection`);
  });
  await ctx.screenshot('walkthrough-steps-done');
}

async function openWalkthrough(page: Page): Promise<void> {
  // The walkthrough picker has no title to wait for: pick the command, then the walkthrough's row.
  await typeCommand(page, 'Welcome: Open Walkthrough...');
  await pick(page, 'Welcome: Open Walkthrough...');
  await pick(page, 'Get started with Judge Studio');
  await step(page, 'Write a judge template').waitFor({ timeout: 20_000 });
}

function step(page: Page, name: string) {
  return page.locator('.gettingStartedContainer .getting-started-step').filter({ hasText: name }).first();
}

async function checked(page: Page, name: string): Promise<boolean> {
  return (await step(page, name).locator('.codicon-getting-started-step-checked').count()) > 0;
}
