// The calibration view in the real workbench: open a pairwise results file from the explorer, run
// "Judge Studio: Calibrate Judge", read heat-map cells inside the webview, list a cell's rows and
// open one; screenshots of the heat map and of the row list.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import type { UiContext } from './driver';

export const title = 'the calibration view shows the confusion matrix as a heat map and lists the rows of a clicked cell';
export const timeoutMs = 120_000;

const METRIC = 'pairwise_fluency';
const FILE = 'pairwise_fluency.results.jsonl';

/** Humans (in Vertex AI's spelling) × judge: A→A 6, A→B 2, A→TIE 1; B→A 1, B→B 5, B→TIE 1; TIE→B 1, TIE→TIE 3. */
function resultsFile(): string {
  const plan: [string, string, number][] = [
    ['BASELINE', 'A', 6], ['BASELINE', 'B', 2], ['BASELINE', 'TIE', 1],
    ['CANDIDATE', 'A', 1], ['CANDIDATE', 'B', 5], ['CANDIDATE', 'TIE', 1],
    ['SAME', 'B', 1], ['SAME', 'TIE', 3],
  ];
  const lines: string[] = [];
  for (const [human, judge, times] of plan) {
    for (let k = 0; k < times; k++) {
      const i = lines.length + 1;
      // `_row` is the row of the judged dataset: the view must show it, not the line in this file.
      lines.push(JSON.stringify({
        _row: 100 + i,
        id: `f${i}`,
        prompt: `Rewrite sentence ${i} fluently.`,
        baseline_model_response: `Baseline answer ${i}.`,
        response: `Candidate answer number ${i}.`,
        [`${METRIC}/human_pairwise_choice`]: human,
        [`${METRIC}/pairwise_choice`]: judge,
        [`${METRIC}/justification`]: `Row ${i}: ${judge} reads better.`,
        [`${METRIC}/passes`]: [
          { order: 'AB', winner: judge, confidence: 0.8, justification: '' },
          { order: 'BA', winner: judge, confidence: 0.7, justification: '' },
        ],
        [`${METRIC}/position_consistent`]: true,
      }));
    }
  }
  return lines.join('\n') + '\n';
}

const cell = (human: string, judge: string): string => `table.heat td.cell[data-human="${human}"][data-judge="${judge}"]`;

export async function run(ctx: UiContext): Promise<void> {
  fs.writeFileSync(path.join(ctx.workspace, FILE), resultsFile());
  // The file appeared after the workbench loaded; the explorer shows it once refreshed.
  await ctx.runCommand('Refresh Explorer');
  await ctx.openFileFromExplorer(FILE);
  await ctx.runCommand('Judge Studio: Calibrate Judge');

  // Row "humans said A": 6 agree, 2 went to B, 1 to TIE; shares are of that row's 9.
  const ab = await ctx.findInFrames(cell('A', 'B'), 30_000);
  expect(((await ab.textContent()) ?? '').trim() === '2 · 22%', `cell A/B reads "${await ab.textContent()}", expected "2 · 22%"`);
  expect((await ab.locator('.count').textContent()) === '2', 'cell A/B counts 2 rows');
  const aa = await ctx.findInFrames(cell('A', 'A'));
  expect(((await aa.textContent()) ?? '').trim() === '6 · 67%', `cell A/A reads "${await aa.textContent()}"`);
  const tieA = await ctx.findInFrames(cell('TIE', 'A'));
  expect(((await tieA.textContent()) ?? '').trim() === '0 · 0%', `cell TIE/A reads "${await tieA.textContent()}"`);

  // The shade comes from a CSS custom property set through the CSSOM; the webview's CSP must let it through.
  // The stylesheet may still be loading when the cells appear, so the dark cell is polled.
  const full = await shaded(aa, 0.3);
  const empty = await background(tieA);
  expect(alphaOf(empty) === 0, `cell TIE/A (0 rows) should be unshaded; its background is ${empty} (A/A: ${full})`);

  const guidance = await ctx.findInFrames('section.guidance');
  const guidanceText = (await guidance.textContent()) ?? '';
  expect(/agreement \(accuracy\) and position consistency/.test(guidanceText), `guidance names the pairwise figures: ${guidanceText}`);
  expect(/only 20 labelled rows/.test(guidanceText), `guidance warns about the small sample: ${guidanceText}`);
  const primary = await ctx.findInFrames('.figure-card.primary[data-key="accuracy"] .figure');
  expect((await primary.textContent()) === '0.700', `agreement reads "${await primary.textContent()}", expected 0.700 (14 of 20)`);
  await ctx.screenshot('calibrate-heatmap');

  // Click a disagreement cell: its two rows are listed, in file order, by their dataset row `_row`.
  await ab.locator('button').click();
  const rows = await ctx.findInFrames('.cell-rows[data-human="A"][data-judge="B"] tr.row', 15_000);
  const list = rows.locator('xpath=..');
  const numbers = await list.locator('tr.row td.num').allTextContents();
  expect(JSON.stringify(numbers) === '["107","108"]', `cell A/B lists rows ${JSON.stringify(numbers)}, expected their _row 107 and 108 (lines 7 and 8)`);
  expect(((await rows.textContent()) ?? '').includes('Rewrite sentence 7 fluently.'), 'the row shows its prompt');
  await ctx.screenshot('calibrate-cell-rows');

  // Open row 107: in the run view when it is registered, else the results file at the row's line (7).
  const hint = (await (await ctx.findInFrames('.cell-rows .hint')).textContent()) ?? '';
  await rows.click();
  if (hint.includes('run view is not available')) {
    const notice = await ctx.findInFrames('.cell-rows .notice:has-text("Row 107 opened")', 15_000);
    expect(((await notice.textContent()) ?? '').includes(`${FILE} at line 7`), `notice: ${await notice.textContent()}`);
    await ctx.page.locator('#status\\.editor\\.selection').filter({ hasText: /Ln 7,/ }).waitFor({ timeout: 15_000 });
  } else {
    await ctx.page.locator('.tabs-container .tab').filter({ hasText: /^\s*Judge Run/ }).first().waitFor({ timeout: 20_000 });
    await ctx.findInFrames(`text=${FILE}, row 107`, 20_000);
  }
  await ctx.screenshot('calibrate-open-row');

  // A run appends rows as they finish: the view recalculates, and the selected cell's list follows.
  const extra = resultsFile().split('\n')[7]?.replace('"_row":108', '"_row":121').replace('"f8"', '"f21"').replace('sentence 8', 'sentence 21') ?? '';
  fs.appendFileSync(path.join(ctx.workspace, FILE), `${extra}\n`);
  await ctx.findInFrames(`${cell('A', 'B')}[data-count="3"]`, 20_000);
  const updated = await ctx.findInFrames(cell('A', 'B'));
  expect(((await updated.textContent()) ?? '').trim() === '3 · 30%', `after a row was appended, cell A/B reads "${await updated.textContent()}"`);
  await ctx.findInFrames('.cell-rows[data-human="A"][data-judge="B"] tr.row[data-row="121"]', 10_000);

  // The rows the judge failed on are listed by their `_row`, with their error kind.
  const failed = JSON.stringify({ _row: 150, id: 'f50', prompt: 'Rewrite sentence 50.', [`${METRIC}/human_pairwise_choice`]: 'BASELINE', [`${METRIC}/error`]: 'rate limited (429): slow down', [`${METRIC}/error_kind`]: 'rate-limit' });
  fs.appendFileSync(path.join(ctx.workspace, FILE), `${failed}\n`);
  const failedRow = await ctx.findInFrames('section.failed tr.row[data-row="150"]', 20_000);
  const cells = await failedRow.locator('td').allTextContents();
  expect(cells[0] === '150' && cells[1] === 'rate-limit' && cells[2] === 'rate limited (429): slow down', `the failed row reads ${cells.join(' | ')}`);
  await failedRow.scrollIntoViewIfNeeded();
  await ctx.screenshot('calibrate-failed-rows');
}

function background(td: Locator): Promise<string> {
  return td.locator('button').evaluate((b) => getComputedStyle(b).backgroundColor);
}

/** Waits until the cell's background is at least `min` opaque; returns the colour. */
async function shaded(td: Locator, min: number, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const color = await background(td);
    if (alphaOf(color) >= min) return color;
    if (Date.now() > deadline) throw new Error(`the heat map is not shaded: a cell with a 67% share has background ${color}`);
    await td.page().waitForTimeout(100); // poll interval, bounded by the deadline
  }
}

/** Alpha of a computed colour: Chromium reports color-mix() as color(srgb r g b / a), rgba(…) or rgb(…). */
function alphaOf(color: string): number {
  const alpha = /\/\s*([\d.]+)\s*\)$/.exec(color)?.[1] ?? /^rgba\([^)]*,\s*([\d.]+)\)$/.exec(color)?.[1];
  if (alpha !== undefined) return Number(alpha);
  return /^rgb\(|^color\(/.test(color) ? 1 : 0;
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
