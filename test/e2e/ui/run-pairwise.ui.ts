// A pairwise row judged from the JSONL line under the cursor: both passes side by side with the
// final verdict; then a row where the judge always picks the first slot shows the
// position-inconsistent marker.
import type { FakeRule } from '../../support/fakeOpenAI';
import { reply } from '../../support/fakeOpenAI';
import type { UiContext } from './driver';
import { expect, gotoLine, historyRow, verdictFrame, withFakeJudge } from './run.ui';

export const title = 'a pairwise row shows both passes and the final verdict, and a position-inconsistent one is marked';
export const timeoutMs = 150_000;

export async function run(ctx: UiContext): Promise<void> {
  // Row 1 (the sunrise): a judge with position bias, always "A". Other rows: the fake's default,
  // the longer response wins wherever it is shown.
  const rules: FakeRule[] = [(r) => (r.prompt.includes('Describe a sunrise') ? reply({ justification: 'The first response reads better.', winner: 'A', confidence: 0.9 }) : undefined)];
  await withFakeJudge(ctx, rules, async () => {
    await ctx.openFileFromExplorer('fluency_pairwise.jsonl');
    await gotoLine(ctx, 2);
    await ctx.runCommand('Judge Studio: Run Judge');

    const frame = await verdictFrame(ctx, 'pairwise');
    await frame.locator('.about .source', { hasText: 'fluency_pairwise.jsonl, row 2' }).waitFor({ timeout: 10_000 });
    const ab = frame.locator('.pass-grid section.pass[data-order="AB"]');
    const ba = frame.locator('.pass-grid section.pass[data-order="BA"]');
    expect((await ab.locator('h3').textContent()) === 'Pass 1 · order AB', 'pass 1 is titled with its order');
    expect((await ba.locator('h3').textContent()) === 'Pass 2 · order BA (swapped)', 'pass 2 is titled with its order');
    expect((await ba.locator('.saw').textContent())?.startsWith('Judge saw: A = response, B = baseline_model_response.') === true, 'pass 2 says which response the judge saw under each label');
    expect((await ab.locator('dd.winner').textContent()) === 'A' && (await ba.locator('dd.winner').textContent()) === 'A (the judge said B)', 'both passes pick A (the longer baseline)');
    expect((await ab.locator('dd.confidence').textContent()) === '0.8', 'each pass shows its confidence');
    expect(((await ab.locator('.justification').textContent()) ?? '').length > 0, 'each pass shows its justification');
    expect((await frame.locator('.final .winner').textContent()) === 'Winner: A', 'the final verdict is A');
    expect(await frame.locator('.final .marker.consistent').isVisible(), 'a consistent verdict says so');
    expect((await frame.locator('.status .pass-state[data-state="answered"]').count()) === 2, 'both passes answered');
    await ctx.screenshot('run-pairwise-both-passes');

    await gotoLine(ctx, 1);
    await ctx.runCommand('Judge Studio: Run Judge');
    await frame.locator('.about .source', { hasText: 'fluency_pairwise.jsonl, row 1' }).waitFor({ timeout: 30_000 });
    const marker = frame.locator('.final .marker.inconsistent');
    await marker.waitFor({ timeout: 30_000 });
    expect((await marker.textContent()) === '⚠ position-inconsistent', `the marker reads "${await marker.textContent()}"`);
    expect((await frame.locator('.final .winner').textContent()) === 'TIE', 'disagreeing passes give a TIE');
    expect((await ab.locator('dd.winner').textContent()) === 'A' && (await ba.locator('dd.winner').textContent()) === 'B (the judge said A)', 'the passes disagree after mapping back');
    await ctx.screenshot('run-pairwise-position-inconsistent');

    await historyRow(ctx, /TIE · position-inconsistent/);
  });
}
