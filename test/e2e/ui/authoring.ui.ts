// The walkthrough in the real workbench: it opens from the palette, and its first step's button
// starts New Judge Template, which writes a template and opens it with its preview. Then Generate
// Rubric against a local judge shows the proposal in the diff editor, and accepting it leaves a
// template the Problems panel has nothing to say about.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { generateJudge } from '../../support/generateFixtures';
import type { UiContext } from './driver';
import { answer, pick, startCommand, typeCommand, waitForStep } from './quickInput';
import { expect, withFakeJudge } from './run.ui';

export const title = 'the walkthrough opens and its first button creates a template; a generated rubric is reviewed in a diff and accepted';
export const timeoutMs = 180_000;

export async function run(ctx: UiContext): Promise<void> {
  const { page } = ctx;
  await ctx.openFileFromExplorer('helpfulness.judge');
  await page.locator('#status\\.editor\\.mode').filter({ hasText: 'Judge template' }).waitFor({ timeout: 20_000 });

  // The walkthrough picker has no title to wait for: pick the command, then the walkthrough's row.
  await typeCommand(page, 'Welcome: Open Walkthrough...');
  await pick(page, 'Welcome: Open Walkthrough...');
  await pick(page, 'Get started with Judge Studio');
  const step = page.locator('.gettingStartedContainer').getByText('Write a judge template', { exact: true }).first();
  await step.waitFor({ timeout: 20_000 });
  await ctx.screenshot('authoring-walkthrough');

  await page.locator('.gettingStartedContainer a.button-link, .gettingStartedContainer .monaco-button').filter({ hasText: 'New Judge Template' }).first().click();
  await waitForStep(page, 'New Judge Template: what does the judge decide?');
  await pick(page, 'Pointwise, 1–5');
  await waitForStep(page, 'New Judge Template: metric name');
  await answer(page, 'clarity');
  // In the order they happen, so a timeout names the step that did not.
  await page.locator('.tab').filter({ hasText: 'clarity.judge' }).first().waitFor({ timeout: 30_000 }).catch(() => {
    throw new Error(`no clarity.judge tab 30 s after naming the metric (clarity.judge ${fs.existsSync(path.join(ctx.workspace, 'clarity.judge')) ? 'was' : 'was not'} written)`);
  });
  await page.locator('.tab').filter({ hasText: 'Preview clarity.judge' }).first().waitFor({ timeout: 30_000 });
  await ctx.findInFrames('main', 30_000);
  expect(fs.existsSync(path.join(ctx.workspace, 'clarity.jsonl')), 'the sample dataset was written beside the template');
  await ctx.screenshot('authoring-new-template');

  await withFakeJudge(ctx, [generateJudge()], async (fake) => {
    // Empty the rubric so generation has something to fill, then ask for it.
    const file = path.join(ctx.workspace, 'clarity.judge');
    await page.locator('.tab').filter({ hasText: 'clarity.judge' }).first().click();
    await startCommand(page, 'Judge Studio: Generate Rubric', 'how strict');
    // The default is preselected: Enter takes it.
    const active = page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name');
    await active.filter({ hasText: /^balanced$/ }).waitFor({ timeout: 10_000 }).catch(async () => {
      throw new Error(`the preselected strictness is "${await active.textContent().catch(() => 'none')}", not balanced`);
    });
    await page.keyboard.press('Enter');
    await waitForStep(page, 'domain (optional)');
    await answer(page, 'everyday questions');
    const diff = page.locator('.monaco-diff-editor').first();
    await diff.waitFor({ timeout: 30_000 });
    // The proposal side shows the provenance line near the top (the diff is inline when narrow).
    await page.locator('.monaco-diff-editor .view-line').filter({ hasText: 'fake-judge' }).first().waitFor({ timeout: 20_000 });
    await ctx.screenshot('authoring-generated-rubric-diff');
    expect(fake.chats.length === 1, `one generation request, got ${fake.chats.length}`);
    expect(!fs.readFileSync(file, 'utf8').includes('Level 5'), 'nothing is written before accepting');

    // While the proposal is open, a notification says how to accept it.
    const reminder = page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'review the generated rubric in the diff' });
    await reminder.waitFor({ timeout: 20_000 });
    // The check mark in the diff editor's title bar accepts the proposal, and the reminder goes with it.
    await page.locator('.editor-actions .action-label[aria-label^="Accept Generated Text"]').first().click();
    await page.locator('.monaco-diff-editor').first().waitFor({ state: 'hidden', timeout: 20_000 });
    await reminder.waitFor({ state: 'detached', timeout: 20_000 }).catch(() => {
      throw new Error('the "review the generated rubric" notification stayed after the proposal was accepted');
    });
    await ctx.runCommand('Notifications: Show Notifications');
    const stale = page.locator('.notifications-center').filter({ hasText: 'generated rubric' });
    expect((await stale.count()) === 0, 'no stale Accept/Discard notification in the notification centre');
    await ctx.runCommand('Notifications: Hide Notifications');
    await page.locator('.tab').filter({ hasText: 'clarity.judge' }).first().click();
    await ctx.runCommand('File: Save');
    await page.locator('.monaco-editor .view-line').filter({ hasText: 'fake-judge' }).first().waitFor({ timeout: 20_000 });
    await ctx.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
    await page.locator('.markers-panel-container').getByText('No problems have been detected in the workspace.').first().waitFor({ timeout: 20_000 }).catch(async () => {
      const shown = await page.locator('.markers-panel-container').innerText().catch(() => '');
      // Other example files may have problems; the accepted template must not be among them.
      if (/clarity\.judge/.test(shown)) throw new Error(`the accepted template has problems: ${shown.slice(0, 600)}`);
    });
    expect(fs.readFileSync(file, 'utf8').includes('generated:\n  rubric: {model: "fake-judge"'), 'the saved template records what generated the rubric');
    await ctx.screenshot('authoring-accepted');
  });
}
