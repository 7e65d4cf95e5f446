// The preview on a large dataset in the real workbench: a 200 MB JSONL file beside the template.
// The preview indexes line offsets and reads only the row it shows, so row 1 and a far row render
// without the whole file being parsed, and typing in the template still re-renders promptly.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UiContext } from './driver';

export const title = 'the preview renders rows of a 200 MB dataset and follows the editor as you type';
export const timeoutMs = 180_000;

const USER = 'article.message[data-role="user"] pre.content';
const ROWS = 100_000;

export async function run(ctx: UiContext): Promise<void> {
  const template = fs.readFileSync(path.join(ctx.workspace, 'helpfulness.judge'), 'utf8').replace(/^name:\s*\S+/m, 'name: big');
  fs.writeFileSync(path.join(ctx.workspace, 'big.judge'), template);
  // ~2 KB per row: 100,000 rows ≈ 200 MB, written in chunks so the test itself stays small in memory.
  const fd = fs.openSync(path.join(ctx.workspace, 'big.jsonl'), 'w');
  const padding = 'lorem ipsum dolor sit amet '.repeat(74);
  for (let start = 1; start <= ROWS; start += 1000) {
    const lines: string[] = [];
    for (let i = start; i < start + 1000; i++) lines.push(JSON.stringify({ prompt: `Question number ${i}?`, response: `Answer ${i}. ${padding}` }));
    fs.writeSync(fd, lines.join('\n') + '\n');
  }
  fs.closeSync(fd);
  const size = fs.statSync(path.join(ctx.workspace, 'big.jsonl')).size;
  expect(size >= 200_000_000, `the dataset is ${size} bytes`);

  // Files written behind the workbench's back show up once the explorer is refreshed.
  await ctx.runCommand('Refresh Explorer');
  await ctx.openFileFromExplorer('big.judge');
  await ctx.page.locator('#status\\.editor\\.mode').filter({ hasText: 'Judge template' }).waitFor({ timeout: 20_000 });
  await ctx.runCommand('Judge Studio: Open Preview to the Side');
  const user = await ctx.findInFrames(USER, 60_000);
  await waitForText(user, 'Question number 1?', 60_000);
  const row = await ctx.findInFrames('button.action:has-text("Row 1 of")', 60_000);
  const rowText = ((await row.textContent()) ?? '').trim();
  expect(Number(rowText.replace(/^Row 1 of /, '').replace(/\D/g, '')) === ROWS, `the toolbar counts every row: "${rowText}"`);
  await ctx.screenshot('preview-large-row-1');

  // The next row comes from the index, not a reparse.
  await (await ctx.findInFrames('button.action[title="Next row"]')).click();
  await waitForText(user, 'Question number 2?', 30_000);

  // Typing re-renders the preview on the same row while the big file stays open.
  await ctx.page.locator('.editor-group-container .monaco-editor .view-line').first().click();
  await ctx.page.keyboard.press('Control+End');
  await ctx.page.keyboard.type('ZQX large marker');
  const started = Date.now();
  await waitForText(user, 'ZQX large marker', 30_000);
  console.log(`    preview of a ${(size / 1e6).toFixed(0)} MB dataset re-rendered ${Date.now() - started} ms after typing`);
  await ctx.screenshot('preview-large-typed');
}

async function waitForText(locator: import('playwright-core').Locator, text: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (((await locator.textContent()) ?? '').includes(text)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for "${text}" in the preview`);
    await locator.page().waitForTimeout(100);
  }
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
