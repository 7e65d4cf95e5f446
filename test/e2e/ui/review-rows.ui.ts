// Review from the explorer's context menu on a results file written in completion order, in a
// workspace with two templates named like the metric: the card numbers the row by `_row` (as every
// other view does), and the template is the one the rows' m/template_hash names, without asking.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { rowKey, templateHash } from '../../../src/core/results';
import type { UiContext } from './driver';
import { explorerMenu } from './menus';

export const title = 'review numbers rows by _row and takes the template the results file names by its hash';
export const timeoutMs = 120_000;

const FILE = 'helpfulness.results.jsonl';

export async function run(ctx: UiContext): Promise<void> {
  const ws = ctx.workspace;
  const template = fs.readFileSync(path.join(ws, 'helpfulness.judge'), 'utf8');
  // A second template with the same metric name (an older draft, say): only the hash tells them apart.
  fs.mkdirSync(path.join(ws, 'drafts'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'drafts/helpfulness.judge'), template.replace('You are a careful evaluator', 'You are a strict evaluator'));
  const rows = [
    { _row: 2, prompt: 'What is the capital of Australia?', response: 'Sydney is the capital.', score: 2, confidence: 0.4 },
    { _row: 1, prompt: 'How many days are in a leap year?', response: 'A leap year has 366 days.', score: 5, confidence: 0.9 },
    { _row: 3, prompt: 'Reverse a list in Python?', response: 'Use my_list[::-1].', score: 4, confidence: 0.8 },
  ];
  const hash = templateHash(template);
  const text = rows
    .map((r) => {
      const record: Record<string, unknown> = { prompt: r.prompt, response: r.response, _row: r._row };
      record._key = rowKey(record, ['prompt', 'response']);
      Object.assign(record, { 'helpfulness/score': r.score, 'helpfulness/confidence': r.confidence, 'helpfulness/justification': `Row ${r._row}'s reasoning.`, 'helpfulness/template_hash': hash });
      return JSON.stringify(record);
    })
    .join('\n') + '\n';
  fs.writeFileSync(path.join(ws, FILE), text);
  const settingsFile = path.join(ws, '.vscode/settings.json');
  const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
  // Written in file order, so the first line (row 2, least confident) leads "uncertain first" either way.
  fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, 'judgeStudio.review.annotator': 'tester' }, null, 2));
  await ctx.runCommand('Refresh Explorer');

  await explorerMenu(ctx, FILE, 'Review Judgments', 'review-rows-menu');
  const card = await ctx.findInFrames('section.item .where', 30_000);
  const where = (await card.textContent()) ?? '';
  expect(where.startsWith('Row 2 ·'), `the first card is the file's first line, _row 2: "${where}"`);
  const item = await ctx.findInFrames('section.item');
  expect(((await item.textContent()) ?? '').includes('What is the capital of Australia?'), "the card shows _row 2's inputs");
  expect((await ctx.page.locator('.quick-input-widget').isVisible()) === false, 'no question about which template judged the file');
  const used = (await (await ctx.findInFrames('.toolbar .title .template')).textContent()) ?? '';
  expect(used === ' · template helpfulness.judge', `the review names the template the hash picked: "${used}"`);
  const who = (await (await ctx.findInFrames('.who')).textContent()) ?? '';
  expect(who.includes('as tester'), `the reviewer is named: ${who}`);
  await ctx.screenshot('review-rows-by-row');

  // Labelling moves to the next row in the queue, still numbered by _row.
  await item.locator('.item-head').click();
  await ctx.page.keyboard.press('2');
  const next = await ctx.findInFrames('section.item[data-row="3"] .where');
  expect(((await next.textContent()) ?? '').startsWith('Row 3 ·'), `the next card: ${await next.textContent()}`);
  const previous = (await (await ctx.findInFrames('.previous .text')).textContent()) ?? '';
  expect(previous.startsWith('Row 2:'), `the labelled row is shown by its _row: ${previous}`);
  const key = (JSON.parse(text.split('\n')[0] ?? '{}') as { _key: string })._key;
  await until(ctx, () => readOr(path.join(ws, 'helpfulness.labels.jsonl')).includes(key), 'the label line carries _row 2\'s _key');
  await ctx.screenshot('review-rows-next');
}

function readOr(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

async function until(ctx: UiContext, condition: () => boolean, message: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(message);
    await ctx.page.waitForTimeout(100); // poll interval, bounded by the deadline
  }
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
