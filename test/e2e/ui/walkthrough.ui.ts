// The walkthrough's steps tick as done when a person does them, however they do them: here the
// preview is opened from the template's CodeLens before the walkthrough is open, and the connection
// is tested from the palette, never through the walkthrough's own buttons; both show their check
// mark, and so does the template step, since the workspace already has templates.
import type { Page } from 'playwright-core';
import type { UiContext } from './driver';
import { pick, typeCommand } from './quickInput';
import { expect } from './run.ui';

export const title = 'walkthrough steps tick for work done before it opened (a CodeLens) and for actions taken from the palette';
export const timeoutMs = 120_000;

const WRITE = 'Write a judge template';
const PREVIEW = 'Preview what the judge sees';
const ENDPOINT = 'Set a judge endpoint';

export async function run(ctx: UiContext): Promise<void> {
  const { page } = ctx;
  await ctx.openFileFromExplorer('helpfulness.judge');
  await page.locator('#status\\.editor\\.mode').filter({ hasText: 'Judge template' }).waitFor({ timeout: 20_000 });

  // Work done before the walkthrough is opened, and not from the palette: the template's CodeLens.
  const lens = page.locator('.editor-group-container.active .codelens-decoration a', { hasText: /^Preview$/ }).first();
  await lens.waitFor({ timeout: 30_000 });
  await lens.click();
  await ctx.findInFrames('article.message[data-role="user"]', 30_000);

  await openWalkthrough(page);
  await step(page, PREVIEW).locator('.codicon-getting-started-step-checked').waitFor({ timeout: 20_000 }).catch(() => {
    throw new Error(`"${PREVIEW}" is not ticked though the preview was opened from its CodeLens before the walkthrough`);
  });
  expect(await checked(page, WRITE), `"${WRITE}" is ticked: the workspace has templates`);
  expect(!(await checked(page, ENDPOINT)), 'the endpoint step starts unticked');
  await ctx.screenshot('walkthrough-earlier-work');

  await page.locator('.tabs-container .tab').filter({ hasText: 'helpfulness.judge' }).first().click();
  await ctx.runCommand('Judge Studio: Test Judge Connection');

  await page.locator('.tabs-container .tab').filter({ hasText: /Walkthrough|Welcome/ }).first().click();
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
