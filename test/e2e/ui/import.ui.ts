// Import Judge Prompt… in the real workbench: pick a FastChat judge_prompts.jsonl in the file
// dialog, choose the format, and the imported templates are written beside it and opened, the
// first with its preview, which shows the verdict parsing rule and the system prompt verbatim.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UiContext } from './driver';
import { pick, startCommand, waitForStep } from './quickInput';
import { expect } from './run.ui';

export const title = 'Import Judge Prompt… writes the FastChat prompts as templates and opens them with the preview';
export const timeoutMs = 150_000;

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

const DIALOG = 'pick a FastChat, promptfoo, Vertex AI or OpenAI Evals file';

/**
 * Import Judge Prompt… from the palette, the source typed into the file dialog, until the format
 * step shows. The dialog fills in its starting folder once it has listed it; on a loaded machine
 * that can land after our text, so wait for the listing, type, and check the step moved on.
 */
export async function pickSourceFile(ctx: UiContext, source: string): Promise<void> {
  const { page } = ctx;
  await startCommand(page, 'Judge Studio: Import Judge Prompt…', DIALOG);
  const input = page.locator('.quick-input-widget input');
  await page.locator('.quick-input-widget .monaco-list-row').first().waitFor({ timeout: 20_000 });
  // The dialog validates the typed path before it accepts it; a click while it is still busy is
  // dropped, so type and click again until the next step shows, within a deadline.
  const deadline = Date.now() + 40_000;
  for (;;) {
    await input.fill(source);
    await page.locator('.quick-input-widget .monaco-button').filter({ hasText: 'Import' }).first().click();
    const next = await page.locator('.quick-input-widget .quick-input-title').filter({ hasText: 'which format is it?' }).waitFor({ state: 'visible', timeout: 4_000 }).then(() => true, () => false);
    if (next || Date.now() > deadline) break;
    // Only type again while the file dialog itself is still what is open.
    const stillPicking = await page.locator('.quick-input-widget .quick-input-title').filter({ hasText: DIALOG }).isVisible();
    if (!stillPicking) break;
  }
  await waitForStep(page, 'which format is it?');
}

export async function run(ctx: UiContext): Promise<void> {
  const { page } = ctx;
  const dir = path.join(ctx.workspace, 'mtbench');
  fs.mkdirSync(dir, { recursive: true });
  const source = path.join(dir, 'judge_prompts.jsonl');
  fs.copyFileSync(path.join(ROOT, 'test/fixtures/import/fastchat_prompts.jsonl'), source);
  // A dataset beside the templates, so the preview renders a row.
  fs.writeFileSync(path.join(dir, 'grade-one.jsonl'), JSON.stringify({ question: 'What is 6 × 7?', answer: '42, since 6 × 7 = 42.' }) + '\n');

  await ctx.openFileFromExplorer('helpfulness.judge');
  await page.locator('#status\\.editor\\.mode').filter({ hasText: 'Judge template' }).waitFor({ timeout: 20_000 });
  await pickSourceFile(ctx, source);
  await ctx.screenshot('import-choose-format');
  await pick(page, 'FastChat (MT-Bench) judge prompts');

  await page.locator('.tab').filter({ hasText: 'Preview grade-one.judge' }).first().waitFor({ timeout: 30_000 });
  for (const f of ['grade-one.judge', 'compare-two.judge', 'compare-two-multi-turn.judge']) {
    expect(fs.existsSync(path.join(dir, f)), `${f} was written beside the source`);
    await page.locator('.tab').filter({ hasText: f }).first().waitFor({ timeout: 20_000 });
  }
  const rule = await ctx.findInFrames('p.verdict-rule', 30_000);
  const ruleText = (await rule.textContent()) ?? '';
  expect(/first \[\[N\]\].*from 1 to 10/.test(ruleText), `the preview states the parsing rule; it reads: ${ruleText}`);
  const system = await ctx.findInFrames('article.message[data-role="system"] pre.content');
  expect(((await system.textContent()) ?? '') === 'You grade assistant answers fairly.', 'the system prompt is sent verbatim');
  const user = await ctx.findInFrames('article.message[data-role="user"] pre.content');
  expect(((await user.textContent()) ?? '').includes('[Question]\nWhat is 6 × 7?\n\n[Answer begins]'), 'the user message is the FastChat template filled with row 1');
  await ctx.screenshot('import-fastchat-preview');
}
