// A multi-criterion template run on a highlighted response in the real workbench: the run view
// shows the criteria table (weight, score, evidence, justification, improvement) and the overall.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { reply, type FakeRule } from '../../support/fakeOpenAI';
import type { UiContext } from './driver';
import { pick, waitForStep } from './quickInput';
import { expect, gotoLine, verdictFrame, withFakeJudge } from './run.ui';

export const title = 'a multi-criterion template shows each criterion with its weight, score, evidence and improvement, and the weighted overall';
export const timeoutMs = 150_000;

const entry = (score: number, evidence: string[], improvement: string) => ({ evidence, justification: `scored ${score}`, score, improvement });

export async function run(ctx: UiContext): Promise<void> {
  const rules: FakeRule[] = [
    () =>
      reply({
        criteria: {
          factual_accuracy: entry(2, ['claims the Sun is closer in summer', '<img src=x onerror=alert(1)>'], 'Name the axial tilt as the cause.'),
          completeness: entry(3, ['mentions distance only'], 'Explain why hemispheres differ.'),
          clarity: entry(5, ['one plain sentence'], 'None needed.'),
        },
        summary: 'Clear but wrong about the cause.',
      }),
  ];
  await withFakeJudge(ctx, rules, async () => {
    fs.writeFileSync(path.join(ctx.workspace, 'answers.md'), '# Answers\n\nSeasons happen because Earth is closer to the Sun in summer.\n');
    await ctx.openFileFromExplorer('factual_accuracy.judge');
    await ctx.page.locator('#status\\.editor\\.mode').filter({ hasText: 'Judge template' }).waitFor({ timeout: 20_000 });
    await ctx.runCommand('Refresh Explorer');
    await ctx.openFileFromExplorer('answers.md');
    await gotoLine(ctx, 3);
    await ctx.page.keyboard.press('Shift+End');
    await ctx.runCommand('Judge Studio: Run Judge on Selection');
    // Several pointwise templates fit a plain selection: the pick names them, the last focused first.
    await waitForStep(ctx.page, 'with which template?');
    await pick(ctx.page, 'factual_accuracy.judge');

    const frame = await verdictFrame(ctx, 'pointwise');
    await frame.locator('table.criteria').waitFor({ timeout: 10_000 });
    const rows = await frame.locator('table.criteria tbody tr[data-criterion]').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.criterion));
    expect(JSON.stringify(rows) === JSON.stringify(['factual_accuracy', 'completeness', 'clarity']), `criteria rows: ${JSON.stringify(rows)}`);
    const cell = (c: string, cls: string) => frame.locator(`tr[data-criterion="${c}"] .${cls}`).innerText();
    expect((await cell('factual_accuracy', 'weight')) === '50%', 'the weight column shows 50%');
    expect((await cell('factual_accuracy', 'crit-score')) === '2', 'the score column shows 2');
    expect((await cell('completeness', 'improvement')) === 'Explain why hemispheres differ.', 'the improvement is shown');
    const evidence = await frame.locator('tr[data-criterion="factual_accuracy"] .evidence li').allInnerTexts();
    expect(evidence[1] === '<img src=x onerror=alert(1)>', `hostile evidence stays text: ${JSON.stringify(evidence)}`);
    expect((await frame.locator('table.criteria img').count()) === 0, 'no element was made from the evidence');
    // 0.5·2 + 0.3·3 + 0.2·5 = 2.9, rounded 3.
    const overall = await frame.locator('table.criteria tr.overall').innerText();
    expect(/2\.9/.test(overall) && /rounded: 3/.test(overall), `the overall row reads "${overall}"`);
    expect(((await frame.locator('.score .value').textContent()) ?? '') === '2.9', 'the verdict shows the weighted overall');
    await ctx.screenshot('run-criteria-table');
  });
}
