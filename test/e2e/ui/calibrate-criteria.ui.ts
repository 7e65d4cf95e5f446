// The calibration view of a multi-criterion judge in the real workbench: it names the criterion
// humans disagree with most, and its Criterion bar switches the view to one criterion.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UiContext } from './driver';

export const title = 'the calibration view of a weighted-criteria judge switches between the overall and each criterion';
export const timeoutMs = 120_000;

const FILE = 'quality.results.jsonl';

/** Ten rows: the judge agrees with humans on accuracy and scores clarity one point higher. */
function resultsFile(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 10; i++) {
    const accuracy = 1 + (i % 5);
    const clarity = 2 + (i % 4);
    const score = 0.5 * accuracy + 0.5 * clarity;
    lines.push(JSON.stringify({
      _row: i,
      prompt: `Question ${i}?`,
      response: `Answer ${i}.`,
      'q/score': score,
      'q/score_rounded': Math.round(score),
      'q/score_accuracy': accuracy,
      'q/score_clarity': clarity,
      'q/criteria': { accuracy: { score: accuracy, weight: 0.5, evidence: [], justification: 'j', improvement: 'i' }, clarity: { score: clarity, weight: 0.5, evidence: [], justification: 'j', improvement: 'i' } },
      'q/justification': `summary ${i}`,
      'q/model': 'm',
      'q/human_rating': Math.round(score),
      'q/human_rating/accuracy': accuracy,
      'q/human_rating/clarity': clarity - 1,
    }));
  }
  return lines.join('\n') + '\n';
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

export async function run(ctx: UiContext): Promise<void> {
  fs.writeFileSync(path.join(ctx.workspace, FILE), resultsFile());
  await ctx.runCommand('Refresh Explorer');
  await ctx.openFileFromExplorer(FILE);
  await ctx.runCommand('Judge Studio: Calibrate Judge');

  const bar = await ctx.findInFrames('nav.criteria-switch', 30_000);
  const buttons = await bar.locator('button').evaluateAll((bs) => bs.map((b) => (b as HTMLElement).dataset.metric));
  expect(JSON.stringify(buttons) === JSON.stringify(['q', 'q/accuracy', 'q/clarity']), `criterion buttons: ${JSON.stringify(buttons)}`);
  const note = (await bar.locator('.most-note').textContent()) ?? '';
  expect(/Most disagreement: clarity — the judge scores higher than humans by 1\.000/.test(note), `the note reads "${note}"`);
  await ctx.screenshot('calibrate-criteria-overall');

  await bar.locator('button[data-metric="q/clarity"]').click();
  const current = await ctx.findInFrames('nav.criteria-switch button[data-metric="q/clarity"][aria-current="true"]', 30_000);
  expect(await current.isDisabled(), 'the shown criterion is the current one');
  // Humans rated clarity one lower on every row: nothing on the diagonal.
  const accuracy = await ctx.findInFrames('.figure-card[data-key="accuracy"] .figure', 15_000);
  expect((await accuracy.textContent()) === '0.000', `clarity agreement reads "${await accuracy.textContent()}"`);
  await ctx.screenshot('calibrate-criteria-clarity');
}
