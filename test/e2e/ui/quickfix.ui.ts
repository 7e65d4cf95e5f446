// The missing-section quick fix as a person uses it: a template without "# Evaluation steps" shows
// the problem, Ctrl+. on it offers to insert the section, and what it inserts is a list of steps a
// judge can follow (for this template's kind), not an empty numbered list; the problem goes away.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UiContext } from './driver';
import { expect } from './run.ui';

export const title = 'the missing-section quick fix inserts Evaluation steps a judge can follow, and the problem goes away';
export const timeoutMs = 120_000;

const FIX = 'Insert a `# Evaluation steps` section';

export async function run(ctx: UiContext): Promise<void> {
  const { page } = ctx;
  const original = fs.readFileSync(path.join(ctx.workspace, 'helpfulness.judge'), 'utf8');
  const broken = original.replace(/# Evaluation steps\n[\s\S]*?\n(?=# Examples)/, '');
  expect(broken !== original && !broken.includes('# Evaluation steps'), 'the fixture lost its Evaluation steps');
  fs.writeFileSync(path.join(ctx.workspace, 'steps.judge'), broken);
  await ctx.runCommand('Refresh Explorer');
  await ctx.openFileFromExplorer('steps.judge');

  await ctx.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
  const problem = page.locator('.markers-panel .monaco-list-row').filter({ hasText: 'missing-section' }).filter({ hasText: 'steps.judge' }).first();
  const row = page.locator('.markers-panel .monaco-list-row').filter({ hasText: 'missing-section' }).first();
  await row.waitFor({ timeout: 30_000 });
  await (await problem.count() ? problem : row).click();
  // The click puts the cursor on the problem in the editor; Ctrl+. lists its fixes there. Right after
  // the click the fixes may not be computed yet ("No code actions available"): ask again, within a deadline.
  const fix = page.locator('.action-widget .monaco-list-row').filter({ hasText: FIX }).first();
  const deadline = Date.now() + 30_000;
  for (;;) {
    await page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
    await page.keyboard.press('Control+.');
    if (await fix.waitFor({ timeout: 4_000 }).then(() => true, () => false)) break;
    if (Date.now() > deadline) {
      const shown = await page.locator('.action-widget .monaco-list-row').allInnerTexts();
      throw new Error(`no "${FIX}" among the fixes; shown: ${shown.join(' | ') || 'nothing'}`);
    }
    await page.keyboard.press('Escape');
  }
  // The menu takes the keyboard: move to the fix, Enter applies it.
  const focused = page.locator('.action-widget .monaco-list-row.focused');
  for (let i = 0; i < 10 && !((await focused.getAttribute('aria-label').catch(() => '')) ?? '').startsWith(FIX); i++) await page.keyboard.press('ArrowDown');
  expect(((await focused.getAttribute('aria-label')) ?? '').startsWith(FIX), `the fix is selected: ${await focused.getAttribute('aria-label')}`);
  await ctx.screenshot('quickfix-missing-steps-menu');
  await page.keyboard.press('Enter');

  const line = (text: string) => page.locator('.editor-group-container.active .monaco-editor .view-line', { hasText: text }).first();
  // The section goes after the Rubric, below the fold: find it, as a person would.
  await page.locator('.markers-panel .monaco-list-row').filter({ hasText: 'missing-section' }).waitFor({ state: 'detached', timeout: 20_000 });
  await page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
  await page.keyboard.press('Control+F');
  await page.keyboard.type('# Evaluation steps');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await line('1. Read the prompt and the response in full before judging.').waitFor({ timeout: 20_000 });
  await line('4. Write your justification first, then the score.').waitFor({ timeout: 10_000 });
  await page.locator('.markers-panel .monaco-list-row').filter({ hasText: 'missing-section' }).waitFor({ state: 'detached', timeout: 20_000 }).catch(async () => {
    throw new Error(`the problem is still listed: ${(await page.locator('.markers-panel .monaco-list-row').allInnerTexts()).join(' | ')}`);
  });
  await ctx.screenshot('quickfix-missing-steps-inserted');
}
