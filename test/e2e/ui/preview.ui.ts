// The rendered-prompt preview in the real workbench: open helpfulness.judge, run the command,
// read row 1's user message inside the webview, watch it follow the editor, and keep screenshots;
// then both swap orders of the pairwise hhh.judge.
import type { Locator } from 'playwright-core';
import type { UiContext } from './driver';
import { typeCommand } from './quickInput';

export const title = 'the preview shows the rendered messages of row 1 and follows the editor as you type';
export const timeoutMs = 150_000;

const USER = 'article.message[data-role="user"] pre.content';

export async function run(ctx: UiContext): Promise<void> {
  await ctx.openFileFromExplorer('helpfulness.judge');
  await ctx.page.locator('#status\\.editor\\.mode').filter({ hasText: 'Judge template' }).waitFor({ timeout: 20_000 });
  await ctx.runCommand('Judge Studio: Open Preview to the Side');

  const user = await ctx.findInFrames(USER, 30_000);
  const text = (await user.textContent()) ?? '';
  expect(text.includes('How many days are in a leap year?'), `the user message should contain row 1's prompt; it reads:\n${text.slice(0, 400)}`);
  expect(text.includes('A leap year has 366 days; February gets a 29th day.'), "the user message should contain row 1's response");
  expect(!text.includes('{{'), 'no placeholder should be left unrendered');
  const marked = await user.locator('span.value').allTextContents();
  expect(marked.includes('How many days are in a leap year?'), `row values should be marked; marked: ${JSON.stringify(marked)}`);

  const stats = await ctx.findInFrames('article.message[data-role="user"] .stats');
  const statsText = (await stats.textContent()) ?? '';
  expect(/^[\d,]+ characters · ≈ [\d,]+ tokens$/.test(statsText), `message stats read "${statsText}"`);
  expect(((await stats.getAttribute('title')) ?? '').includes('estimate'), 'the token count says it is an estimate');
  const row = await ctx.findInFrames('button.action:has-text("Row 1 of")');
  expect(/^Row 1 of \d+$/.test(((await row.textContent()) ?? '').trim()), 'the toolbar names row 1');
  // Show the marked row values in the screenshot, not just the top of the prompt.
  await user.locator('span.value').first().scrollIntoViewIfNeeded();
  await ctx.screenshot('preview-helpfulness-row-1');

  // The toolbar's next-row button asks the host for row 2, which is remembered and rendered.
  await (await ctx.findInFrames('button.action[title="Next row"]')).click();
  await ctx.findInFrames('button.action:has-text("Row 2 of")', 15_000);
  await waitForText(user, 'Give me a one-line shell command to count the lines in notes.txt.');

  // Typing in the template re-renders the preview; an error replaces the render with the error list.
  // A line, not .view-lines: that element is taller than the window, and its centre is off screen.
  await ctx.page.locator('.editor-group-container .monaco-editor .view-line').first().click();
  await ctx.page.keyboard.press('Control+End');
  await ctx.page.keyboard.type('ZQX live marker');
  await waitForText(user, 'ZQX live marker');
  await ctx.page.keyboard.press('Enter');
  await ctx.page.keyboard.type('# Rubric');
  const errors = await ctx.findInFrames('section.problems.errors li:has-text("duplicate-section")', 15_000);
  expect(((await errors.textContent()) ?? '').includes('line 69'), 'the error names its line');
  await ctx.screenshot('preview-helpfulness-error');

  // Pairwise: both orders, the responses exchanged in the second.
  await ctx.openFileFromExplorer('hhh.judge');
  await ctx.runCommand('Judge Studio: Open Preview to the Side');
  const ab = await ctx.findInFrames(`section.order[data-order="AB"] ${USER}`, 30_000);
  const ba = await ctx.findInFrames(`section.order[data-order="BA"] ${USER}`, 30_000);
  const [abText, baText] = [(await ab.textContent()) ?? '', (await ba.textContent()) ?? ''];
  expect(/Response A:\n<response_a>\nI can't help with getting into/.test(abText), `order AB should show response_a first:\n${abText.slice(-600)}`);
  expect(/Response A:\n<response_a>\nGet a tension wrench/.test(baText), `order BA should show response_b first:\n${baText.slice(-600)}`);
  await ctx.screenshot('preview-hhh-pairwise');

  // After a window reload the serializer brings the previews back, rendered again. The command
  // (not page.reload) lets the workbench save which editors are open before it goes.
  const reloaded = ctx.page.waitForEvent('load', { timeout: 60_000 });
  await typeCommand(ctx.page, 'Developer: Reload Window');
  await ctx.page.keyboard.press('Enter');
  await reloaded;
  await ctx.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const restored = await ctx.findInFrames(`section.order[data-order="BA"] ${USER}`, 60_000);
  expect(/Response A:\n<response_a>\nGet a tension wrench/.test((await restored.textContent()) ?? ''), 'the restored preview renders hhh.judge again');
}

/** Waits (with a deadline) until the element's text contains `text`. */
async function waitForText(el: Locator, text: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!((await el.textContent()) ?? '').includes(text)) {
    if (Date.now() > deadline) throw new Error(`the preview did not show "${text}" within ${timeoutMs / 1000} s of typing it`);
    await el.page().waitForTimeout(50); // poll interval, bounded by the deadline
  }
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
