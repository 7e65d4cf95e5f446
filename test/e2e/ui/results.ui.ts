// The results viewer in the real workbench: open a 20,000-row results file from the explorer in
// the viewer, read the summary strip, filter the failed rows, search, sort, scroll to the end of
// the virtualised table, and open a row; screenshots of each step.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UiContext } from './driver';

export const title = 'the results viewer shows a large results file as a virtualised table that filters, searches and sorts';
export const timeoutMs = 150_000;

const FILE = 'big.results.jsonl';
const ROWS = 20_000;
const M = 'helpfulness';

/** Row i: score 1 + i % 5; every 50th row failed (rate-limit, or invalid-reply every 150th); row 2 has a resumed second line. */
function resultsFile(): string {
  const lines: string[] = [];
  for (let i = 1; i <= ROWS; i++) {
    const failed = i % 50 === 0;
    lines.push(JSON.stringify({
      prompt: `Question number ${i}`,
      response: i === 777 ? 'The needle <script>alert(1)</script> answer' : `Answer ${i}`,
      _row: i,
      [`${M}/score`]: failed ? null : 1 + (i % 5),
      [`${M}/justification`]: failed ? null : `Justified ${i}.`,
      [`${M}/human_rating`]: i <= 100 ? 3 : null,
      ...(failed ? { [`${M}/error`]: 'failed', [`${M}/error_kind`]: i % 150 === 0 ? 'invalid-reply' : 'rate-limit' } : {}),
    }));
  }
  // Completion order is not row order, and a resumed row appears twice: the last line stands.
  [lines[0], lines[1]] = [lines[1]!, lines[0]!];
  lines.push(JSON.stringify({ prompt: 'Question number 2', response: 'Answer 2', _row: 2, [`${M}/score`]: 5, [`${M}/justification`]: 'Resumed 2.' }));
  return lines.join('\n') + '\n';
}

export async function run(ctx: UiContext): Promise<void> {
  fs.writeFileSync(path.join(ctx.workspace, FILE), resultsFile());
  await ctx.runCommand('Refresh Explorer');
  await ctx.openFileFromExplorer(FILE);
  const started = Date.now();
  await ctx.runCommand('Judge Studio: Open in Results Viewer');
  const first = await ctx.findInFrames('.tr[data-row="1"]', 60_000);
  const opened = Date.now() - started;
  const count = await ctx.findInFrames('.toolbar .count');
  expect((await count.textContent()) === `${ROWS} of ${ROWS} rows`, `count reads "${await count.textContent()}"`);
  expect(((await first.textContent()) ?? '').includes('Justified 1.'), `row 1 reads "${await first.textContent()}"`);
  const row2 = await ctx.findInFrames('.tr[data-row="2"] .c-text');
  expect((await row2.textContent()) === 'Resumed 2.', 'the last line of a resumed row stands');
  const rendered = await (await ctx.findInFrames('.spacer')).locator('.tr').count();
  expect(rendered < 200, `only the rows in view are in the page, found ${rendered}`);
  const failures = await ctx.findInFrames('.summary .failures');
  const failText = (await failures.textContent()) ?? '';
  expect(/Failed rows: 400/.test(failText) && /rate-limit: 267/.test(failText) && /invalid-reply: 133/.test(failText), `failures: ${failText}`);
  await ctx.screenshot('results-viewer');

  // Filter: failed rows only.
  await (await ctx.findInFrames('button[data-filter="failed"]')).click();
  await ctx.findInFrames('.toolbar .count:text-is("400 of 20000 rows")', 15_000);
  const firstFailed = await ctx.findInFrames('.spacer .tr >> nth=0');
  expect((await firstFailed.getAttribute('data-row')) === '50', `first failed row is ${await firstFailed.getAttribute('data-row')}`);
  await ctx.screenshot('results-viewer-failed');

  // Sort by error kind, descending: rate-limit first.
  await (await ctx.findInFrames('.thead [data-sort="errorKind"]')).click();
  await (await ctx.findInFrames('.thead [data-sort="errorKind"]')).click();
  await ctx.findInFrames('.spacer .tr[data-row="50"] .c-err:text-is("rate-limit")', 15_000);

  // Search over every row: the hostile text stays text.
  await (await ctx.findInFrames('button[data-filter="all"]')).click();
  await (await ctx.findInFrames('input.search')).fill('needle <script>');
  await ctx.findInFrames('.toolbar .count:text-is("1 of 20000 rows")', 15_000);
  await (await ctx.findInFrames('input.search')).fill('');
  await ctx.findInFrames(`.toolbar .count:text-is("${ROWS} of ${ROWS} rows")`, 15_000);

  // Back to row order, then scroll to the end of the virtualised table: the last row is fetched and drawn.
  await (await ctx.findInFrames('.thead [data-sort="row"]')).click();
  await ctx.findInFrames('.thead [data-sort="row"]:text-is("Row ▲")', 10_000);
  const viewport = await ctx.findInFrames('.viewport');
  const height = await viewport.evaluate((v) => {
    v.scrollTo(0, v.scrollHeight);
    return v.scrollHeight;
  });
  expect(height >= ROWS * 26, `the table is as tall as ${ROWS} rows: scrollHeight ${height}`);
  await ctx.findInFrames(`.tr[data-row="${ROWS}"]`, 15_000);
  await ctx.screenshot('results-viewer-end');
  console.log(`results viewer: ${ROWS} rows opened and drawn in ${opened} ms`);
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
