// Human review in the real workbench: open a results file, start "Review Judgments", label rows with
// the keyboard (pointwise, then pairwise with the responses in a seeded shown order), undo one,
// watch the agreement update, add a disagreement as a few-shot example, and find the labels file
// and the calibration view in step with what was labelled.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { fromShown, parseLabels, type LabelLine } from '../../../src/core/labels';
import { rowKey } from '../../../src/core/results';
import type { UiContext } from './driver';

export const title = 'review judgments: label five rows with the keyboard, undo one, agreement and calibration follow the labels file';
export const timeoutMs = 180_000;

const FILE = 'helpfulness.results.jsonl';
const LABELS = 'helpfulness.labels.jsonl';
const PAIR_LABELS = 'fluency_pairwise.labels.jsonl';

/** Rows 2 and 3 have low confidence, so "uncertain first" shows 2, 3, 1, 4; row 5 failed and is left out. */
function resultsFile(): string {
  const rows: [string, string, number | null, number][] = [
    ['How many days are in a leap year?', 'A leap year has 366 days.', 5, 0.9],
    ['What is the capital of Australia?', 'Sydney is the capital.', 2, 0.4],
    ['Reverse a list in Python?', 'Use my_list[::-1] for a reversed copy.', 4, 0.6],
    ['Boiling point of water in Fahrenheit?', '212 degrees Fahrenheit at sea level.', 3, 0.95],
    ['Say hello.', 'Hello!', null, 0],
  ];
  return rows
    .map(([prompt, response, score, confidence], i) => {
      const record: Record<string, unknown> = { id: `h${i + 1}`, prompt, response, _row: i + 1 };
      record._key = rowKey(record, ['prompt', 'response']);
      if (score === null) Object.assign(record, { 'helpfulness/error': 'timed out', 'helpfulness/error_kind': 'timeout' });
      else Object.assign(record, { 'helpfulness/score': score, 'helpfulness/confidence': confidence, 'helpfulness/justification': `The judge's reasoning for row ${i + 1}.` });
      return JSON.stringify(record);
    })
    .join('\n') + '\n';
}

export async function run(ctx: UiContext): Promise<void> {
  const ws = ctx.workspace;
  fs.writeFileSync(path.join(ws, FILE), resultsFile());
  const settingsFile = path.join(ws, '.vscode/settings.json');
  const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
  fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, 'judgeStudio.review.annotator': 'tester' }, null, 2));
  await ctx.runCommand('Refresh Explorer');
  await ctx.openFileFromExplorer(FILE);
  await ctx.runCommand('Judge Studio: Review Judgments');

  // Blind by default: the first row is the least confident one, its verdict hidden.
  const frame = await frameOf(ctx, 'section.item[data-row="2"]');
  expect((await frame.locator('.progress').textContent())?.startsWith('Labelled 0 of 4 · uncertain first · 1 failed row left out') === true, `progress: ${await frame.locator('.progress').textContent()}`);
  expect((await frame.locator('.verdict').getAttribute('data-hidden')) === 'true', 'the verdict is hidden before labelling');
  expect(((await frame.locator('section.item').textContent()) ?? '').includes('What is the capital of Australia?'), 'the row shows its inputs');
  await ctx.screenshot('review-blind');

  // Label with the keyboard: row 2 → 2 (agrees), row 3 → 5 (judge said 4), row 1 → 5 (agrees).
  await frame.locator('.item-head').click();
  await press(ctx, frame, '2', 1);
  await press(ctx, frame, '5', 2);
  await press(ctx, frame, '5', 3);
  await frame.locator('.agreement[data-n="3"]').waitFor({ timeout: 10_000 });
  expect(((await frame.locator('.figure-card[data-key="accuracy"] .figure').textContent()) ?? '') === '2/3 = 67%', 'agreement 2 of 3');
  expect((await frame.locator('.previous').getAttribute('data-agree')) === 'true', 'the last label is shown with the judge revealed');
  await ctx.screenshot('review-three-labels');

  // Undo the last label: it is retracted (an appended line), agreement goes back to 1 of 2.
  await press(ctx, frame, 'u', 2);
  await frame.locator('.agreement[data-n="2"]').waitFor({ timeout: 10_000 });
  expect(((await frame.locator('.figure-card[data-key="accuracy"] .figure').textContent()) ?? '') === '1/2 = 50%', 'agreement 1 of 2 after undo');
  await frame.locator('section.item[data-row="1"] .verdict[data-hidden="true"]').waitFor({ timeout: 10_000 });
  const lines = await labelLines(path.join(ws, LABELS), 4);
  expect(JSON.stringify(lines.map((l) => l.label)) === '[2,5,5,null]', `labels file: ${JSON.stringify(lines.map((l) => l.label))}`);
  expect(lines.every((l) => l.annotator === 'tester' && l.metric === 'helpfulness'), 'annotator and metric on every line');

  // The calibration view joins the labels file: 2 labelled rows now, 3 after one more label.
  await frame.locator('button', { hasText: 'Calibration' }).click();
  const counts = await ctx.findInFrames('header .counts', 30_000);
  await waitText(counts, /^2 labelled rows/);
  await ctx.screenshot('review-calibration-2');
  const review = await frameOf(ctx, 'section.item');
  await review.locator('.item-head').click();
  await press(ctx, review, '4', 3);
  await waitText(counts, /^3 labelled rows/);

  // Back on row 3 (a disagreement): the verdict is revealed, and Add as Example edits the template.
  await review.locator('.item-head').click();
  await ctx.page.keyboard.press('ArrowLeft');
  await ctx.page.keyboard.press('ArrowLeft');
  await review.locator('section.item[data-row="3"] .verdict[data-agree="false"]').waitFor({ timeout: 10_000 });
  await ctx.screenshot('review-disagreement');
  await review.locator('section.item .add-example').click();
  await ctx.page.locator('.tabs-container .tab').filter({ hasText: 'helpfulness.judge' }).first().waitFor({ timeout: 15_000 });
  await ctx.waitForText('Example 3', { within: '.monaco-editor' });
  await ctx.screenshot('review-example-added');

  // Pairwise: an older results file without _key (keys from the template), responses in the shown order.
  // A results file opens in the Results Viewer; the command takes the file of the active tab.
  await ctx.openFileFromExplorer('fluency_pairwise.results.jsonl');
  await ctx.runCommand('Judge Studio: Review Judgments');
  const pairFrame = await frameOf(ctx, 'section.item[data-shown] .pair');
  const first = pairFrame.locator('section.item');
  const shown1 = (await first.getAttribute('data-shown')) as 'AB' | 'BA';
  const record1 = JSON.parse(fs.readFileSync(path.join(ws, 'fluency_pairwise.results.jsonl'), 'utf8').split('\n')[0] ?? '{}') as Record<string, string>;
  const firstShown = (await pairFrame.locator('.pair .field pre').first().textContent()) ?? '';
  expect(firstShown === (shown1 === 'AB' ? record1['baseline_model_response'] : record1['response']), `response A on screen follows the shown order ${shown1}`);
  await ctx.screenshot('review-pairwise');
  await pairFrame.locator('.item-head').click();
  await press(ctx, pairFrame, 'a', 1);
  const shown2 = (await pairFrame.locator('section.item').getAttribute('data-shown')) as 'AB' | 'BA';
  await press(ctx, pairFrame, 't', 2);
  await pairFrame.locator('.agreement[data-n]').first().waitFor({ timeout: 10_000 });
  const pairs = await labelLines(path.join(ws, PAIR_LABELS), 2);
  expect(pairs[0]?.shown === shown1 && pairs[0]?.label === fromShown('A', shown1), `first pairwise label is A on screen mapped back: ${JSON.stringify(pairs[0])}`);
  expect(pairs[1]?.shown === shown2 && pairs[1]?.label === 'TIE', `second pairwise label: ${JSON.stringify(pairs[1])}`);
  expect(JSON.stringify(pairs[0]?.fields) === '["baseline_model_response","prompt","response"]', 'keys were computed from the template inputs');
  await ctx.screenshot('review-pairwise-labelled');
}

/** The webview frame holding `selector`. */
async function frameOf(ctx: UiContext, selector: string): Promise<import('playwright-core').Frame> {
  const loc = await ctx.findInFrames(selector, 30_000);
  const handle = await loc.elementHandle();
  const f = await handle?.ownerFrame();
  if (!f) throw new Error(`no frame for ${selector}`);
  return f;
}

/** Presses a key and waits until the view says `labelled` rows are labelled. */
async function press(ctx: UiContext, frame: import('playwright-core').Frame, key: string, labelled: number): Promise<void> {
  await ctx.page.keyboard.press(key);
  await frame.locator(`.progress[data-labelled="${labelled}"]`).waitFor({ timeout: 10_000 });
}

async function labelLines(file: string, count: number, timeoutMs = 10_000): Promise<LabelLine[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    const { lines } = parseLabels(text);
    if (lines.length >= count) return lines;
    if (Date.now() > deadline) throw new Error(`${path.basename(file)} has ${lines.length} line(s), expected ${count}:\n${text}`);
    await new Promise((r) => setTimeout(r, 100)); // poll interval, bounded by the deadline
  }
}

async function waitText(loc: Locator, pattern: RegExp, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = ((await loc.textContent().catch(() => '')) ?? '').trim();
    if (pattern.test(text)) return;
    if (Date.now() > deadline) throw new Error(`expected ${pattern}, the text is "${text}"`);
    await loc.page().waitForTimeout(150); // poll interval, bounded by the deadline
  }
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
