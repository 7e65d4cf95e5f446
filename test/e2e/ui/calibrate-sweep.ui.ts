// A tiered run in the calibration view: the escalation threshold sweep drawn as a curve (share
// escalated against agreement with the big judge and with humans), and each threshold's figures
// in a table the person opens.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UiContext } from './driver';

export const title = "the calibration view draws a tiered run's escalation threshold sweep";
export const timeoutMs = 120_000;

const METRIC = 'triage';
const FILE = 'triage.results.jsonl';

/**
 * Ten rows, screen confidence 0.1 … 1.0; humans and the big judge say 4 everywhere; the screen
 * says 2 on the three least confident rows. The run escalated below 0.5 and audited every kept row.
 */
function resultsFile(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 10; i++) {
    const confidence = i / 10;
    const screen = i <= 3 ? 2 : 4;
    const escalated = confidence < 0.5;
    lines.push(JSON.stringify({
      _row: i,
      question: `Ticket ${i}`,
      answer: `Reply ${i}`,
      [`${METRIC}/human_rating`]: 4,
      [`${METRIC}/score`]: escalated ? 4 : screen,
      [`${METRIC}/tier`]: escalated ? 'judge' : 'screen',
      ...(escalated ? { [`${METRIC}/escalation`]: ['low-confidence'] } : { [`${METRIC}/audit`]: true }),
      [`${METRIC}/tiers`]: { screen: { model: 'small', score: screen, confidence }, judge: { model: 'big', score: 4, confidence: 0.9 }, audit_percent: 100 },
    }));
  }
  return lines.join('\n') + '\n';
}

export async function run(ctx: UiContext): Promise<void> {
  fs.writeFileSync(path.join(ctx.workspace, FILE), resultsFile());
  await ctx.runCommand('Refresh Explorer');
  await ctx.openFileFromExplorer(FILE);
  await ctx.runCommand('Judge Studio: Calibrate Judge');

  const intro = (await (await ctx.findInFrames('section.sweep p.legend', 30_000)).textContent()) ?? '';
  expect(intro.startsWith("10 screened rows, 10 with the big judge's verdict (6 kept rows audited at 100%)"), `the sweep says what it rests on: ${intro}`);
  // Both curves, one point per threshold (0, 0.05, …, 1).
  const human = await ctx.findInFrames('svg.sweep-chart polyline[data-series="human"]');
  const points = ((await human.getAttribute('points')) ?? '').trim().split(/\s+/);
  expect(points.length === 21, `the human curve has ${points.length} points, expected 21`);
  await ctx.findInFrames('svg.sweep-chart polyline[data-series="judge"]');
  const section = await ctx.findInFrames('section.sweep');
  await section.scrollIntoViewIfNeeded();
  await ctx.screenshot('calibrate-sweep-curve');

  // The table opens like any disclosure, with the keyboard.
  const summary = await ctx.findInFrames('section.sweep details.sweep-table summary');
  await summary.focus();
  await ctx.page.keyboard.press('Enter');
  const none = await ctx.findInFrames('table.sweep-points tr[data-rule="confidence<0"]', 10_000);
  const noneCells = await none.locator('th, td').allTextContents();
  expect(noneCells.join('|') === 'confidence<0|0%|70%|70% (10)', `escalating nothing reads ${noneCells.join(' | ')}`);
  const low = await ctx.findInFrames('table.sweep-points tr[data-rule="confidence<0.35"]');
  const lowCells = await low.locator('th, td').allTextContents();
  expect(lowCells.join('|') === 'confidence<0.35|30%|100%|100% (10)', `escalating below 0.35 reads ${lowCells.join(' | ')}`);
  await low.scrollIntoViewIfNeeded();
  await ctx.screenshot('calibrate-sweep-table');
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
