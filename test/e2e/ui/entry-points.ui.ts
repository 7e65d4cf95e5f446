// Every way a person starts a judge run, done the way a person does it: right-click a selection in
// a Markdown file and a line of a JSONL file and pick the menu item, the CodeLens, the editor title
// button, the keybinding, and the side panel. Each run is checked in the run view: the verdict and
// the template the header names. Screenshots of each step feed docs/images (npm run screenshots).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { reply, type FakeRule, type RecordedRequest } from '../../support/fakeOpenAI';
import type { UiContext } from './driver';
import { contextMenu } from './menus';
import { pick, waitForStep } from './quickInput';
import { expect, gotoLine, historyRow, verdictFrame, withFakeJudge } from './run.ui';

export const title = 'each run entry point (context menus, CodeLens, title button, keybinding, side panel) judges the sample and names its template';
export const timeoutMs = 240_000;

const NOTES = 'notes.md';
const ANSWER = 'A leap year has 366 days.';

/** Pointwise requests get score 4; pairwise ones the fake's default (the longer response wins). */
const rules: FakeRule[] = [
  (r: RecordedRequest) => {
    const schema = (r.body as { response_format?: { json_schema?: { schema?: { properties?: Record<string, { maximum?: number }> } } } } | undefined)?.response_format?.json_schema?.schema;
    const score = schema?.properties?.score;
    return score ? reply({ justification: 'Correct: 366 days.', score: Math.min(4, score.maximum ?? 4) }) : undefined;
  },
];

export async function run(ctx: UiContext): Promise<void> {
  await withFakeJudge(ctx, rules, async (fake) => {
    fs.writeFileSync(path.join(ctx.workspace, NOTES), `# Draft answers\n\n${ANSWER}\n`);
    await ctx.runCommand('Refresh Explorer');
    // Clicks in the explorer must not land while it inserts the new file and shifts its rows.
    await ctx.page.locator('.explorer-folders-view .monaco-list-row', { hasText: NOTES }).waitFor({ timeout: 20_000 });

    // 1. The side panel, before any run: its welcome button runs the open template on a chosen row.
    await ctx.openFileFromExplorer('helpfulness.judge');
    await ctx.page.locator('#status\\.editor\\.mode').filter({ hasText: 'Judge template' }).waitFor({ timeout: 20_000 });
    await ctx.page.locator('.activitybar [aria-label^="Judge Studio"]').first().click();
    const welcome = ctx.page.locator('.part.sidebar .welcome-view-content .monaco-button', { hasText: /^Run Judge$/ }).first();
    await welcome.waitFor({ timeout: 20_000 });
    await welcome.click();
    await waitForStep(ctx.page, 'Judge which row of');
    await pick(ctx.page, 'Row 1');
    let frame = await verdictFrame(ctx, 'pointwise');
    await expectRun(frame, { template: 'helpfulness.judge', source: 'helpfulness.jsonl, row 1', verdict: '4' });
    await ctx.screenshot('entry-side-panel-welcome');
    await ctx.runCommand('View: Show Explorer');

    // 2. Markdown: highlight, right-click, Run Judge on Selection; two pointwise templates fit, so it asks.
    // (The run view of step 1 is closed first, so the demo pictures start from a plain editor.)
    await closeTab(ctx, /^Judge Run/);
    await ctx.openFileFromExplorer(NOTES);
    await gotoLine(ctx, 3);
    await ctx.page.keyboard.press('Shift+End');
    await ctx.screenshot('demo-1-highlight');
    await editorMenu(ctx, ANSWER.slice(0, 20), 'Run Judge on Selection', 'demo-2-right-click');
    await waitForStep(ctx.page, `Judge the selection in ${NOTES} with which template?`);
    const offered = await ctx.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').evaluateAll((rows) => rows.map((r) => r.querySelector('.label-name')?.textContent?.trim()));
    // Pointwise templates fit a plain selection, the last focused first; pairwise ones (two responses) do not.
    expect(
      offered[0] === 'helpfulness.judge' && offered.includes('pass_fail.judge') && !offered.includes('hhh.judge') && !offered.includes('fluency_pairwise.judge'),
      `the templates that fit a plain selection, the last focused first: ${offered.join(' | ')}`,
    );
    await ctx.screenshot('demo-3-choose-template');
    await pick(ctx.page, 'helpfulness.judge');
    frame = await verdictFrame(ctx, 'pointwise');
    await expectRun(frame, { template: 'helpfulness.judge', source: `selection in ${NOTES}`, verdict: '4', how: `picked for ${NOTES}` });
    expect((fake.chats.at(-1)?.prompt ?? '').includes(ANSWER), 'the highlighted text was sent as the response');
    await ctx.screenshot('demo-4-verdict');

    // The choice is remembered for the file: the keybinding on the same selection asks no more.
    const before = fake.chats.length;
    await ctx.openFileFromExplorer(NOTES);
    await gotoLine(ctx, 3);
    await ctx.page.keyboard.press('Shift+End');
    await ctx.page.keyboard.press('Control+Alt+J');
    await until(ctx, () => fake.chats.length > before, 'the keybinding sent no request');
    await frame.locator('main[data-phase="done"]').waitFor({ timeout: 30_000 });
    expect(fake.chats.length === before + 1, `the keybinding judged the selection once (${fake.chats.length - before} requests)`);
    await expectRun(frame, { template: 'helpfulness.judge', source: `selection in ${NOTES}`, verdict: '4', how: `the template chosen for ${NOTES}` });

    // 3. JSONL: right-click a line, Run Judge: the row is judged with the dataset's own template.
    await ctx.openFileFromExplorer('fluency_pairwise.jsonl');
    await editorMenu(ctx, 'Thank a colleague', 'Run Judge');
    frame = await verdictFrame(ctx, 'pairwise');
    await expectRun(frame, { template: 'fluency_pairwise.judge', source: 'fluency_pairwise.jsonl, row 2', verdict: 'Winner: A' });
    const saw = (await frame.locator('.pass-grid section.pass[data-order="BA"] .saw').textContent()) ?? '';
    expect(saw.startsWith('Judge saw: A = response, B = baseline_model_response.'), `the swapped pass says what the judge saw: ${saw}`);
    const swappedWinner = (await frame.locator('.pass-grid section.pass[data-order="BA"] dd.winner').textContent()) ?? '';
    expect(swappedWinner === 'A (the judge said B)', `the swapped pass maps its winner back: ${swappedWinner}`);
    await ctx.screenshot('entry-pairwise-swapped');

    // 4. The keybinding on a JSONL line of helpfulness.jsonl.
    await ctx.openFileFromExplorer('helpfulness.jsonl');
    await gotoLine(ctx, 3);
    await ctx.page.keyboard.press('Control+Alt+J');
    await frame.locator('.about .source', { hasText: 'helpfulness.jsonl, row 3' }).waitFor({ timeout: 30_000 });
    frame = await verdictFrame(ctx, 'pointwise');
    await expectRun(frame, { template: 'helpfulness.judge', source: 'helpfulness.jsonl, row 3', verdict: '4' });

    // 5. The CodeLens above the template: the preview's row, without asking.
    await ctx.openFileFromExplorer('pass_fail.judge');
    const lens = ctx.page.locator('.editor-group-container.active .codelens-decoration a', { hasText: 'Run judge' }).first();
    await lens.waitFor({ timeout: 30_000 });
    await lens.click();
    await frame.locator('.toolbar .title .file', { hasText: /^pass_fail\.judge$/ }).waitFor({ timeout: 30_000 });
    frame = await verdictFrame(ctx, 'pointwise');
    await expectRun(frame, { template: 'pass_fail.judge', source: 'pass_fail.csv, row 1' });

    // 6. The editor title button (▷) of a template: asks which row.
    await ctx.openFileFromExplorer('helpfulness.judge');
    await ctx.page.locator('.editor-group-container.active .editor-actions a.action-label[aria-label^="Run Judge"]').first().click();
    await waitForStep(ctx.page, 'Judge which row of');
    await pick(ctx.page, 'Row 2');
    await frame.locator('.about .source', { hasText: 'helpfulness.jsonl, row 2' }).waitFor({ timeout: 30_000 });
    frame = await verdictFrame(ctx, 'pointwise');
    await expectRun(frame, { template: 'helpfulness.judge', source: 'helpfulness.jsonl, row 2', verdict: '4' });

    // 7. The side panel's history: a click reopens a recorded run, template named.
    // Wait for the panel to list the last run (it refreshes when the history file grows), then click.
    await historyRow(ctx, /helpfulness\s*5 runs/);
    const row = await historyRow(ctx, /fluency_pairwise\.jsonl, row 2/);
    await ctx.screenshot('side-panel');
    const reopened = frame.locator('.about .source', { hasText: 'fluency_pairwise.jsonl, row 2' });
    for (let attempt = 1; ; attempt++) {
      await row.click();
      if (await reopened.waitFor({ timeout: 10_000 }).then(() => true, () => false)) break;
      if (attempt === 3) throw new Error('a click on the history row did not reopen the run');
    }
    frame = await verdictFrame(ctx, 'pairwise');
    await expectRun(frame, { template: 'fluency_pairwise.judge', source: 'fluency_pairwise.jsonl, row 2', verdict: 'Winner: A' });
    await ctx.screenshot('entry-history-reopened');

    // A failed row reads as failed: an out-of-range score, even after the repair request, makes the
    // pass red ("unusable"), never a green "answered".
    await ctx.runCommand('View: Show Explorer');
    await ctx.openFileFromExplorer('helpfulness.jsonl');
    await gotoLine(ctx, 1);
    fake.rules = [() => reply({ justification: 'Off the scale.', score: 9 })];
    await ctx.page.keyboard.press('Control+Alt+J');
    await frame.locator('main[data-phase="failed"] section.verdict.error').waitFor({ timeout: 30_000 });
    const pill = frame.locator('.status .pass-state').first();
    expect((await pill.getAttribute('data-state')) === 'unusable', `the failed row's pass is "${await pill.getAttribute('data-state')}", expected unusable`);
    expect((await pill.evaluate((e) => getComputedStyle(e).color)) !== (await frame.locator('.status .pass-state .label').first().evaluate((e) => getComputedStyle(e.ownerDocument.body).color)), 'the unusable pass is coloured, not plain text');
    await ctx.screenshot('entry-failed-row');
  });
}

/** Closes the editor tab whose label matches `label` and waits until it is gone. */
async function closeTab(ctx: UiContext, label: RegExp): Promise<void> {
  const tab = ctx.page.locator('.tabs-container .tab').filter({ has: ctx.page.locator('.label-name', { hasText: label }) }).first();
  await tab.hover();
  await tab.locator('.tab-actions .action-label').first().click();
  await tab.waitFor({ state: 'detached', timeout: 10_000 });
}

/** Polls `condition` until it holds or the deadline passes. */
async function until(ctx: UiContext, condition: () => boolean, message: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(message);
    await ctx.page.waitForTimeout(100); // poll interval, bounded by the deadline
  }
}

/** Right-clicks the text `on` in the active editor and picks the context-menu item labelled exactly `item`. */
async function editorMenu(ctx: UiContext, on: string, item: string, shot = `context-menu-${item}`): Promise<void> {
  const line = ctx.page.locator('.editor-group-container.active .monaco-editor .view-line', { hasText: on }).first();
  await line.waitFor({ timeout: 20_000 });
  const text = line.locator('span span').filter({ hasText: on.slice(0, 8) }).first();
  await contextMenu(ctx, (await text.count()) ? text : line, item, { what: `the line "${on}" in the editor`, shot });
}

/** The run view names the template and the sample, and shows the verdict (`verdict`: a score or the winner line). */
async function expectRun(frame: Frame, o: { template: string; source: string; verdict?: string; how?: string }): Promise<void> {
  // The view is redrawn in place: wait for this run's sample (and template choice) before reading it.
  const exact = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  await frame.locator('.about .source', { hasText: exact(o.source) }).waitFor({ timeout: 30_000 }).catch(async () => {
    throw new Error(`the sample reads "${await frame.locator('.about .source').textContent()}", expected "${o.source}"`);
  });
  if (o.how !== undefined) {
    await frame.locator('.toolbar .title .how', { hasText: exact(`(${o.how})`) }).waitFor({ timeout: 30_000 }).catch(async () => {
      throw new Error(`the header says how the template was chosen: "${await frame.locator('.toolbar .title .how').textContent()}", expected "(${o.how})"`);
    });
  }
  await frame.locator('main[data-phase="done"], main[data-phase="recorded"]').waitFor({ timeout: 30_000 });
  const file = (await frame.locator('.toolbar .title .file').textContent()) ?? '';
  expect(file === o.template, `the run view names the template "${file}", expected "${o.template}"`);
  if (o.verdict !== undefined) {
    const shown = (await frame.locator('.verdict .score .value, .verdict .final .winner').first().textContent()) ?? '';
    expect(shown === o.verdict, `the verdict reads "${shown}", expected "${o.verdict}"`);
  }
}
