// The calibration view's two choices, as a person makes them: with the keyboard on the view's own
// selects, re-read a pairwise file under the `votes` swap rule (a row whose one order was
// unreadable is judged from the other) and split the figures by a dataset column.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { waitForLocatorText, waitUntil, type UiContext } from './driver';

export const title = 'the calibration view re-reads the two orders under another swap rule and splits the figures by a column';
export const timeoutMs = 120_000;

const METRIC = 'arena';
const FILE = 'arena.results.jsonl';

/** [category, human, judge (null: the row failed), AB winner, BA winner (null: unreadable)]. */
const PLAN: [string, string, string | null, string, string | null][] = [
  ['math', 'A', 'A', 'A', 'A'],
  ['math', 'B', 'B', 'B', 'B'],
  ['math', 'A', null, 'A', null],
  ['coding', 'B', null, 'B', null],
  ['coding', 'A', 'TIE', 'A', 'B'],
  ['coding', 'B', 'B', 'B', 'B'],
];

function resultsFile(): string {
  const pass = (order: string, winner: string | null) => (winner === null ? { order, error_kind: 'invalid-reply' } : { order, winner, confidence: 0.8, justification: `${order}: ${winner}` });
  return PLAN.map(([category, human, judge, ab, ba], i) =>
    JSON.stringify({
      _row: i + 1,
      category,
      question: `Question ${i + 1}`,
      response_a: `First answer ${i + 1}`,
      response_b: `Second answer ${i + 1}`,
      [`${METRIC}/human_pairwise_choice`]: human,
      [`${METRIC}/pairwise_choice`]: judge,
      ...(judge === null ? { [`${METRIC}/error`]: 'the reply has two different verdicts', [`${METRIC}/error_kind`]: 'invalid-reply' } : {}),
      [`${METRIC}/passes`]: [pass('AB', ab), pass('BA', ba)],
    }),
  ).join('\n') + '\n';
}

export async function run(ctx: UiContext): Promise<void> {
  fs.writeFileSync(path.join(ctx.workspace, FILE), resultsFile());
  await ctx.runCommand('Refresh Explorer');
  await ctx.openFileFromExplorer(FILE);
  await ctx.runCommand('Judge Studio: Calibrate Judge');

  // As stored: the two failed rows are left out, 3 of 4 agree.
  await waitForLocatorText(await ctx.findInFrames('.figure-card[data-key="accuracy"] .figure', 30_000), '0.750');
  expect(((await (await ctx.findInFrames('header .counts')).textContent()) ?? '').startsWith('4 labelled rows'), 'four rows have both labels as recorded');
  const swap = await ctx.findInFrames('nav.view-options select[name="swap-rule"]');
  expect((await swap.inputValue()) === 'recorded', `the swap rule starts as the run judged, not "${await swap.inputValue()}"`);

  // The keyboard on the select: stored → consistent → votes.
  await swap.focus();
  await ctx.page.keyboard.press('ArrowDown');
  await ctx.page.keyboard.press('ArrowDown');
  // Under votes the unreadable order abstains and the other decides: 5 of 6 agree.
  await waitForLocatorText(await ctx.findInFrames('.figure-card[data-key="accuracy"] .figure'), '0.833', 20_000);
  await waitUntil(async () => ((await (await ctx.findInFrames('header .counts')).textContent()) ?? '').startsWith('6 labelled rows'), 'six rows are judged under votes');
  expect((await (await ctx.findInFrames('nav.view-options select[name="swap-rule"]')).inputValue()) === 'votes', 'the select shows votes after the recalculation');

  // Figures by category: each value's rows and agreement.
  const by = await ctx.findInFrames('nav.view-options select[name="by"]');
  await by.focus();
  await ctx.page.keyboard.press('ArrowDown');
  const coding = await ctx.findInFrames('section.groups tr[data-value="coding"]', 20_000);
  const math = await ctx.findInFrames('section.groups tr[data-value="math"]');
  const codingCells = await coding.locator('th, td').allTextContents();
  const mathCells = await math.locator('th, td').allTextContents();
  expect(codingCells.slice(0, 3).join('|') === 'coding|3|0.667', `the coding row reads ${codingCells.join(' | ')}`);
  expect(mathCells.slice(0, 3).join('|') === 'math|3|1.000', `the math row reads ${mathCells.join(' | ')}`);
  const heading = (await (await ctx.findInFrames('section.groups h2')).textContent()) ?? '';
  expect(heading === 'Figures by category (2 values)', `the table's heading reads "${heading}"`);
  await ctx.screenshot('calibrate-votes-by-category');

  // Back to the stored verdicts: the table follows (the failed rows count per value).
  const swapAgain = await ctx.findInFrames('nav.view-options select[name="swap-rule"]');
  await swapAgain.focus();
  await ctx.page.keyboard.press('ArrowUp');
  await ctx.page.keyboard.press('ArrowUp');
  await waitForLocatorText(await ctx.findInFrames('.figure-card[data-key="accuracy"] .figure'), '0.750', 20_000);
  const storedCoding = await (await ctx.findInFrames('section.groups tr[data-value="coding"]')).locator('th, td').allTextContents();
  expect(storedCoding[1] === '2' && storedCoding[storedCoding.length - 1] === '1', `as recorded, coding has 2 rows and 1 failed: ${storedCoding.join(' | ')}`);
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
