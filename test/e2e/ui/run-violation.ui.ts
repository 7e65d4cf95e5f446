// A multi-dimension (HHH) judgment in the real workbench: the run view shows the dimension × pass
// table with winners and degrees, the rankings, and the rule the judge broke, in words. Then the
// whole dataset runs as a batch, and the side panel's summary counts the rows with violations.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pairSlots, reply, type FakeRule } from '../../support/fakeOpenAI';
import type { UiContext } from './driver';
import { expect, gotoLine, historyRow, verdictFrame, withFakeJudge } from './run.ui';

export const title = 'the run view shows a multi-dimension verdict with its rule violation, and the batch summary counts them';
export const timeoutMs = 180_000;

/**
 * A judge that prefers the longer response on every dimension but helpfulness, ranks it 6 against 2,
 * and in the swapped pass calls a gap of 4 only "slightly better": a ranking-gap violation.
 */
function hhhJudge(rows: { response_a: string }[]): FakeRule {
  return (r) => {
    const slots = pairSlots(r.prompt);
    if (!slots) return undefined;
    const swapped = !rows.some((row) => row.response_a.trim() === slots.a);
    const [win, lose] = slots.a.length >= slots.b.length ? ['A', 'B'] : ['B', 'A'];
    const rank = (side: string) => (side === win ? 6 : 2);
    return reply({
      justification: `Response ${win} is safer and more accurate.`,
      dimensions: { harmless: { winner: win, degree: 'significantly better' }, honest: { winner: win, degree: 'better' }, helpful: { winner: lose, degree: 'slightly better' } },
      ranking: { A: rank('A'), B: rank('B') },
      deflection: { A: false, B: false },
      overall: { winner: win, degree: swapped ? 'slightly better' : 'significantly better' },
    });
  };
}

export async function run(ctx: UiContext): Promise<void> {
  const rows = fs.readFileSync(path.join(ctx.workspace, 'hhh.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { response_a: string });
  await withFakeJudge(ctx, [hhhJudge(rows)], async () => {
    await ctx.openFileFromExplorer('hhh.jsonl');
    await gotoLine(ctx, 1);
    await ctx.runCommand('Judge Studio: Run Judge');

    const frame = await verdictFrame(ctx, 'dimensional');
    const head = await frame.locator('table.dimensions thead th').allTextContents();
    expect(head.join(' | ') === 'Dimension | Pass 1 (AB) | Pass 2 (BA) | Final', `the table header reads ${head.join(' | ')}`);
    const harmless = await frame.locator('table.dimensions tr[data-dimension="harmless"] td').allTextContents();
    expect(harmless.every((c) => c === 'A · significantly better'), `harmless row: ${harmless.join(' | ')}`);
    const helpful = await frame.locator('table.dimensions tr[data-dimension="helpful"] td').allTextContents();
    expect(helpful.every((c) => c === 'B · slightly better'), `helpful row: ${helpful.join(' | ')}`);
    const rankings = (await frame.locator('.verdict .rankings').textContent()) ?? '';
    expect(rankings === 'Ranking (mean of the passes): A 6 · B 2', `rankings read "${rankings}"`);
    const violation = frame.locator('.violations li[data-rule="ranking-gap"]').first();
    const words = (await violation.textContent()) ?? '';
    expect(/^Pass 2 · ranking-gap: ranking gap 4 \(A=6, B=2\) calls for "better" or "significantly better", but the overall degree is "slightly better"$/.test(words), `the violation reads: ${words}`);
    const badge = (await frame.locator('.final .badge.violations').textContent()) ?? '';
    expect(badge === '⚠ 1 rule violation', `the verdict line carries the violation badge next to position-consistent: "${badge}"`);
    await violation.scrollIntoViewIfNeeded();
    await ctx.screenshot('run-hhh-violation');

    // The whole dataset, from its own editor: the sibling template runs on it; the results file opens at the end.
    await ctx.openFileFromExplorer('hhh.jsonl');
    await ctx.runCommand('Judge Studio: Run Judge on Dataset');
    await ctx.page.locator('.tabs-container .tab.active').filter({ hasText: /^hhh-hhh-\d{8}-\d{6}\.jsonl/ }).waitFor({ timeout: 60_000 });
    await historyRow(ctx, /Last batch: hhh\.jsonl/);
    const summary = await historyRow(ctx, new RegExp(`^${rows.length} rows with rule violations$`));
    expect(await summary.isVisible(), 'the summary counts every row as violating');
    await historyRow(ctx, /100% position-consistent/);
    await ctx.screenshot('run-hhh-batch-summary');
  });
}
