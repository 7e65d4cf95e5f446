// A panel of three judges in the real workbench: the dataset is judged by every judge (one of
// them dissenting), the batch's summary in the side panel gives the panel agreement, and the
// recorded row in the run view shows the panel verdict and the judge × pass table.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { panelTemplate } from '../../support/judgeFixtures';
import { reply, type FakeRule } from '../../support/fakeOpenAI';
import type { UiContext } from './driver';
import { pick, startCommand, waitForStep } from './quickInput';
import { expect, historyRow, verdictFrame, withFakeJudge } from './run.ui';

export const title = 'a panel run shows the panel verdict and a judge × pass table in the run view, and the panel agreement in the side panel';
export const timeoutMs = 150_000;

const TEMPLATE = panelTemplate(['judge-a', 'judge-b', 'judge-c']);

export async function run(ctx: UiContext): Promise<void> {
  // judge-a and judge-b prefer the response holding "good"; judge-c (a contrarian) the other one.
  const rules: FakeRule[] = [
    (r) => {
      const aIsGood = /\[Response A\]\n[^\n]*good/.test(r.prompt);
      const contrarian = r.body?.model === 'judge-c';
      const winner = aIsGood !== contrarian ? 'A' : 'B';
      return reply({ justification: `${String(r.body?.model)}: I prefer response ${winner} <b>as shown</b>.`, winner, confidence: 0.8 });
    },
  ];
  await withFakeJudge(ctx, rules, async (fake) => {
    fs.writeFileSync(path.join(ctx.workspace, 'panel_pref.judge'), TEMPLATE);
    const rows = [
      { prompt: 'Name a colour.', response_a: 'A good answer: blue.', response_b: 'A poor answer.' },
      { prompt: 'Name a fruit.', response_a: 'A poor answer.', response_b: 'A good answer: apple.' },
    ];
    fs.writeFileSync(path.join(ctx.workspace, 'panel_pref.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await ctx.runCommand('Refresh Explorer');
    await ctx.openFileFromExplorer('panel_pref.jsonl');
    await ctx.runCommand('Judge Studio: Run Judge on Dataset');
    await ctx.page.locator('.tabs-container .tab.active').filter({ hasText: /^panel_pref-[\w.-]*\d{8}-\d{6}\.jsonl/ }).waitFor({ timeout: 60_000 });
    // The results open in the Results Viewer; once it has drawn its rows it has taken the focus it
    // takes, so the quick pick opened next is not closed by it.
    await ctx.findInFrames('.toolbar .count:text-is("2 of 2 rows")', 30_000);
    expect(fake.chats.length === 12, `three judges × two rows × two passes, got ${fake.chats.length} requests`);
    await historyRow(ctx, /^panel agreement 67%$/);
    await ctx.screenshot('run-panel-side-panel');

    await startCommand(ctx.page, 'Judge Studio: Show Result Row', 'Show a row of which results file?');
    await ctx.page.locator('.quick-input-list .monaco-list-row').filter({ hasText: /panel_pref-[\w.-]*\d{8}/ }).first().click();
    await waitForStep(ctx.page, 'Which row of');
    await pick(ctx.page, 'Row 1');

    const frame = await verdictFrame(ctx, 'pairwise');
    const headline = frame.locator('section.panel .panel-verdict');
    await headline.waitFor({ timeout: 20_000 });
    expect((await headline.textContent()) === 'Panel verdict: A · 2 of 3 judges agree', `the panel headline reads "${await headline.textContent()}"`);
    const head = await frame.locator('table.panel-table thead th').allTextContents();
    expect(head.join(' | ') === 'Judge | Pass AB | Pass BA | Verdict | Confidence | Status', `the table header reads ${head.join(' | ')}`);
    const cells = async (judge: string) => (await frame.locator('table.panel-table tbody tr').filter({ hasText: judge }).locator('td').allTextContents()).join(' | ');
    expect((await cells('judge-a')) === 'judge-a | A | A | A | 0.8 | agrees', `judge-a reads ${await cells('judge-a')}`);
    expect((await cells('judge-c')) === 'judge-c | B | B | B | 0.8 | dissents', `judge-c reads ${await cells('judge-c')}`);
    expect((await frame.locator('.final .winner').textContent()) === 'Winner: A', 'the row verdict is the majority A');
    await frame.locator('details.panel-justifications summary').click();
    const why = (await frame.locator('details.panel-justifications').innerText()) ?? '';
    expect(why.includes('judge-c: I prefer response B <b>as shown</b>.'), `justifications stay text: ${why.slice(0, 200)}`);
    expect((await frame.locator('details.panel-justifications b').count()) === 0, 'no markup from a judge reaches the page');
    await frame.locator('section.panel').scrollIntoViewIfNeeded();
    await ctx.screenshot('run-panel-table');
  });
}
