// Align Judge with Labels in the real workbench, against the stand-in judge of docs/align.md (it
// fails terse answers unless the prompt shows a terse example): from the calibration view's
// button, the align view lists the candidates with their held-out figures and intervals, the
// examples candidate is best, its diff opens, Accept makes it the template's next version, and
// Compare Runs shows the held-out runs before and after.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { authorModel, caseKey, isTerse, shortAnswersTruth, terseBiasedJudge } from '../../support/alignFixtures';
import type { UiContext } from './driver';
import { expect, withFakeJudge } from './run.ui';

export const title = 'Align Judge with Labels from the calibration view lists the candidates, and Accept makes the best one the next template version';
export const timeoutMs = 240_000;

const RESULTS = 'short_answers.results.jsonl';

/** A results file as `run` would write it with the stand-in judge: terse answers fail. */
function resultsFile(workspace: string): string {
  const rows = fs.readFileSync(path.join(workspace, 'short_answers.jsonl'), 'utf8').split('\n').filter((l) => l.trim());
  return (
    rows
      .map((l, i) => {
        const r = JSON.parse(l) as { prompt: string; response: string; 'correct_answer/human_rating': number };
        const score = isTerse(r.response) ? 0 : r['correct_answer/human_rating'];
        return JSON.stringify({ ...r, _row: i + 1, 'correct_answer/score': score, 'correct_answer/justification': score ? 'Right fact.' : 'Too short to tell.' });
      })
      .join('\n') + '\n'
  );
}

async function frameOf(ctx: UiContext, selector: string, timeoutMs: number): Promise<Frame> {
  const found = await ctx.findInFrames(selector, timeoutMs);
  const frame = await (await found.elementHandle())?.ownerFrame();
  if (!frame) throw new Error(`${selector} is in no frame`);
  return frame;
}

export async function run(ctx: UiContext): Promise<void> {
  const truth = shortAnswersTruth(path.join(ctx.workspace, 'short_answers.jsonl'));
  expect(truth.has(caseKey('What is the capital of Canada?', 'Ottawa.')), 'the example dataset is in the workspace');
  await withFakeJudge(ctx, [authorModel(), terseBiasedJudge(truth)], async (fake) => {
    fs.writeFileSync(path.join(ctx.workspace, RESULTS), resultsFile(ctx.workspace));
    await ctx.runCommand('Refresh Explorer');
    await ctx.openFileFromExplorer(RESULTS);
    await ctx.runCommand('Judge Studio: Calibrate Judge');
    const calibration = await frameOf(ctx, 'header.toolbar button:has-text("Align Judge with Labels")', 30_000);
    await calibration.locator('header.toolbar button', { hasText: 'Align Judge with Labels' }).click();

    // The candidates, once the held-out rows are judged.
    const view = await frameOf(ctx, 'section.candidate[data-best="true"]', 150_000);
    const best = view.locator('section.candidate[data-best="true"]');
    expect((await best.getAttribute('data-id')) === 'examples4', `best: ${await best.getAttribute('data-id')}`);
    const ids = await view.locator('section.candidate[data-id]').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.id));
    expect(ids.join(',') === 'examples4,rubric,examples4-rubric', `candidates: ${ids.join(',')}`);
    const heldout = (await best.locator('.fig.heldout .value').textContent()) ?? '';
    expect(heldout === '1.000', `held-out accuracy of the best: ${heldout}`);
    const delta = (await best.locator('.delta-text').textContent()) ?? '';
    expect(/^\+0\.350 \[\+0\.\d{3}, \+0\.\d{3}\]$/.test(delta), `held-out change with its interval: ${delta}`);
    expect((await best.locator('.fig.overfit .value').textContent()) === 'no', 'the best is not flagged overfit');
    const rubric = (await view.locator('section.candidate[data-id="rubric"] .delta-text').textContent()) ?? '';
    expect(rubric.startsWith('+0.000'), `the rubric candidate does not help this judge: ${rubric}`);
    const verdict = (await view.locator('p.verdict').textContent()) ?? '';
    expect(verdict === 'Best: examples4 raises held-out accuracy from 0.650 to 1.000 (+0.350, 95% interval above 0).', `verdict: ${verdict}`);
    // The interval band of the best lies right of the zero line.
    const band = await best.locator('.axis').evaluate((axis) => {
      const zero = axis.querySelector('.zero')!.getBoundingClientRect().left;
      const ci = axis.querySelector('.ci')!.getBoundingClientRect();
      return { zero, left: ci.left };
    });
    expect(band.left > band.zero, `the interval starts right of 0 (${band.left} > ${band.zero})`);
    expect(fake.chats.length >= 40 * 4, `the current template and three candidates were judged (${fake.chats.length} calls)`);
    await ctx.screenshot('align-view');

    // Review Disagreements: the review queue holds only the held-out rows the rubric candidate still gets wrong.
    const reviewButton = view.locator('section.candidate[data-id="rubric"] button', { hasText: 'Review Disagreements' });
    const wrong = Number(/\((\d+)\)/.exec((await reviewButton.textContent()) ?? '')?.[1]);
    expect(wrong === 7, `the rubric candidate gets 7 held-out rows wrong: ${wrong}`);
    await reviewButton.click();
    const review = await frameOf(ctx, '.progress', 30_000);
    const progress = (await review.locator('.progress').textContent()) ?? '';
    expect(progress.startsWith(`Labelled 0 of ${wrong}`), `review queue: ${progress}`);
    await ctx.screenshot('align-review');
    await ctx.page.locator('.tab', { hasText: 'Align: correct_answer' }).first().click();
    const again = await frameOf(ctx, 'section.candidate[data-best="true"]', 30_000);
    const bestAgain = again.locator('section.candidate[data-best="true"]');

    await bestAgain.locator('button', { hasText: 'Show Diff' }).click();
    await ctx.waitForText('short_answers.judge ↔ examples4 (candidate)', { within: '.tabs-container', timeoutMs: 20_000 });
    await ctx.screenshot('align-diff');

    await ctx.page.locator('.tab', { hasText: 'Align: correct_answer' }).first().click();
    const view2 = await frameOf(ctx, 'section.candidate[data-best="true"]', 30_000);
    await view2.locator('section.candidate[data-best="true"] button', { hasText: 'Accept' }).click();
    await ctx.waitForText(/accepted examples4 as the next version of short_answers\.judge/, { within: '.notifications-toasts', timeoutMs: 20_000 });
    const template = fs.readFileSync(path.join(ctx.workspace, 'short_answers.judge'), 'utf8');
    expect(/^aligned_from: [0-9a-f]{12}$/m.test(template) && (template.match(/^## Example \d$/gm) ?? []).length === 4, 'the template file is the candidate now');
    const accepted = await frameOf(ctx, 'section.candidate.accepted', 20_000);
    expect((await accepted.locator('section.candidate.accepted').getAttribute('data-id')) === 'examples4', 'the view marks the accepted candidate');
    const history = fs.readFileSync(path.join(ctx.workspace, '.judge-studio', 'history', 'correct_answer.jsonl'), 'utf8').trim().split('\n');
    expect(history.length === 2 && history.every((l) => (JSON.parse(l) as { type: string }).type === 'batch'), `the run history holds both held-out runs (${history.length} lines)`);
    await ctx.screenshot('align-accepted');

    await ctx.page.locator('.notifications-toasts .monaco-button', { hasText: 'Compare Runs' }).first().click();
    const compare = await frameOf(ctx, 'table.figures tr[data-key="accuracy"]', 30_000);
    const row = (await compare.locator('table.figures tr[data-key="accuracy"]').textContent()) ?? '';
    expect(row.includes('0.650') && row.includes('1.000'), `Compare Runs shows held-out accuracy before and after: ${row}`);
    await ctx.screenshot('align-compare');
  });
}
