// The template editor as a new user meets it: a typo and a rubric gap show as problems on their
// lines, and completion in a new, empty .judge file offers the whole templates first.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UiContext } from './driver';
import { expect } from './run.ui';

export const title = 'a template with a typo and a rubric gap shows both problems, and a new .judge file offers the whole templates first';
export const timeoutMs = 120_000;

export async function run(ctx: UiContext): Promise<void> {
  // A copy of the example with {{respnse}} and no "- 3:" line in the rubric.
  const original = fs.readFileSync(path.join(ctx.workspace, 'helpfulness.judge'), 'utf8');
  const broken = original.replace('{{response}}', '{{respnse}}').replace(/^- 3:.*\n/m, '');
  expect(broken !== original && !/^- 3:/m.test(broken), 'the fixture has the typo and the gap');
  fs.writeFileSync(path.join(ctx.workspace, 'draft.judge'), broken);
  fs.writeFileSync(path.join(ctx.workspace, 'new.judge'), '');
  await ctx.runCommand('Refresh Explorer');

  await ctx.openFileFromExplorer('draft.judge');
  await ctx.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
  const problems = ctx.page.locator('.markers-panel .monaco-list-row');
  for (const code of ['unknown-placeholder', 'rubric-gap']) {
    await problems.filter({ hasText: code }).first().waitFor({ timeout: 30_000 }).catch(async () => {
      throw new Error(`the Problems view has no ${code}; it shows: ${(await problems.allInnerTexts()).join(' | ')}`);
    });
  }
  // Scroll the editor to the typo so the squiggle is in the picture.
  await ctx.page.locator('.markers-panel .monaco-list-row').filter({ hasText: 'unknown-placeholder' }).first().click();
  await ctx.page.locator('.editor-group-container.active .squiggly-error').first().waitFor({ timeout: 20_000 });
  await ctx.screenshot('editor-diagnostics');

  // A new file: Ctrl+Space lists the whole templates first, pointwise selected.
  await ctx.openFileFromExplorer('new.judge');
  await ctx.page.locator('.editor-group-container.active .monaco-editor .view-line').first().click();
  await ctx.page.keyboard.press('Control+Space');
  const rows = ctx.page.locator('.editor-widget.suggest-widget .monaco-list-row');
  await rows.first().waitFor({ timeout: 20_000 });
  const deadline = Date.now() + 20_000;
  let labels: string[] = [];
  for (;;) {
    labels = await rows.evaluateAll((els) => els.map((e) => e.querySelector('.label-name')?.textContent?.trim() ?? ''));
    if (labels.slice(0, 3).join() === 'template-pointwise,template-pairwise,template-hhh' || Date.now() > deadline) break;
    await ctx.page.waitForTimeout(150); // the list fills as providers answer; bounded by the deadline
  }
  expect(labels.slice(0, 3).join() === 'template-pointwise,template-pairwise,template-hhh', `a new file offers the templates first; it offers: ${labels.slice(0, 6).join(' | ')}`);
  await ctx.screenshot('new-file-completion');
  await ctx.page.keyboard.press('Enter');
  await ctx.page.locator('.editor-group-container.active .view-line', { hasText: '# Criteria' }).first().waitFor({ timeout: 10_000 });
}
