// What the run view attributes to the judge: on a dataset row that carries human labels (the
// per-criterion ratings of factual_accuracy.jsonl), "Other reply fields" lists only what the
// judge's reply added, never the dataset's labels; and a pointwise panel names its agreement as
// the panel's share, not "agreement across samples" it never ran.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { POINTWISE } from '../../support/judgeFixtures';
import { reply, type FakeRule } from '../../support/fakeOpenAI';
import type { UiContext } from './driver';
import { expect, gotoLine, verdictFrame, withFakeJudge } from './run.ui';

export const title = 'the run view never lists dataset human labels as reply fields, and a panel names its agreement as the panel share';
export const timeoutMs = 150_000;

const entry = (score: number) => ({ evidence: ['quoted'], justification: `scored ${score}`, score, improvement: 'none' });

export async function run(ctx: UiContext): Promise<void> {
  const rules: FakeRule[] = [
    (r) =>
      r.body?.model === 'judge-c'
        ? reply({ justification: 'A weaker answer.', score: 2 })
        : /judge-[ab]/.test(String(r.body?.model))
          ? reply({ justification: 'A good answer.', score: 4 })
          : reply({
              criteria: { factual_accuracy: entry(1), completeness: entry(2), clarity: entry(4) },
              summary: 'Wrong about the cause.',
              reviewer_note: 'checked against a textbook',
            }),
  ];
  await withFakeJudge(ctx, rules, async () => {
    // Row 1 of factual_accuracy.jsonl carries answer_quality/human_rating and one human rating per criterion.
    await ctx.openFileFromExplorer('factual_accuracy.jsonl');
    await gotoLine(ctx, 1);
    await ctx.page.keyboard.press('Control+Alt+J');
    const frame = await verdictFrame(ctx, 'pointwise');
    await frame.locator('table.criteria').waitFor({ timeout: 10_000 });
    const fields = await frame.locator('.verdict dl.extras dt').allTextContents();
    expect(JSON.stringify(fields) === '["reviewer_note"]', `"Other reply fields" lists only the reply's own extra field: ${JSON.stringify(fields)}`);
    const verdictText = (await frame.locator('section.verdict').innerText()) ?? '';
    expect(!verdictText.includes('human_rating'), `the verdict lists no human label: ${verdictText.slice(0, 400)}`);
    await frame.locator('.verdict dl.extras').scrollIntoViewIfNeeded();
    await ctx.screenshot('run-labels-not-reply-fields');

    // A pointwise panel of three judges, no samples: its confidence is the share of the panel.
    const template = POINTWISE.replace('name: quality\n', 'name: panel_quality\n').replace(
      'inputs: [prompt, response]\n---',
      'inputs: [prompt, response]\nmodel:\n  judges:\n    - model: judge-a\n    - model: judge-b\n    - model: judge-c\n---',
    );
    fs.writeFileSync(path.join(ctx.workspace, 'panel_quality.judge'), template);
    fs.writeFileSync(path.join(ctx.workspace, 'panel_quality.jsonl'), JSON.stringify({ prompt: 'Name a colour.', response: 'Blue.' }) + '\n');
    await ctx.runCommand('Refresh Explorer');
    await ctx.openFileFromExplorer('panel_quality.jsonl');
    await gotoLine(ctx, 1);
    await ctx.page.keyboard.press('Control+Alt+J');
    // The run view may be redrawn in place or open anew: find the frame that shows the panel.
    const head = await ctx.findInFrames('section.panel .panel-verdict', 40_000);
    const panel = await (await head.elementHandle())?.ownerFrame();
    if (!panel) throw new Error('the panel section is in no frame');
    await panel.locator('section.panel .panel-verdict', { hasText: 'Panel verdict: 4' }).waitFor({ timeout: 20_000 });
    const confidence = (await panel.locator('.verdict .confidence').textContent()) ?? '';
    expect(confidence === 'Share of the panel that gave this score: 0.67', `the confidence line reads "${confidence}"`);
    expect(!(await panel.locator('main').innerText()).includes('across samples'), 'nothing mentions samples that never ran');
    await ctx.screenshot('run-panel-pointwise-share');
  });
}
