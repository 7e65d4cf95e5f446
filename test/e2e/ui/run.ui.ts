// Running the judge on a highlighted response in the real workbench: the score and the
// justification appear in the run view, and the side panel lists the run. The judge is a local
// OpenAI-compatible server started here; the (trusted) workspace's settings point at it.
// Also exports the helpers the other run*.ui tests share.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Locator } from 'playwright-core';
import { FakeOpenAI, reply, type FakeRule } from '../../support/fakeOpenAI';
import type { UiContext } from './driver';
import { clearNotifications, outcome } from './notifications';
import { pick, startCommand } from './quickInput';

export const title = 'a highlighted response gets its score and justification in the run view, and the side panel lists the run';
export const timeoutMs = 150_000;

/**
 * Starts a fake judge, points the workspace's endpoint settings at it, waits until the workbench
 * uses them (Test Judge Connection answers), runs `body` with the request log emptied, then stops it.
 */
export async function withFakeJudge(ctx: UiContext, rules: FakeRule[], body: (fake: FakeOpenAI) => Promise<void>): Promise<void> {
  const fake = await FakeOpenAI.start({ rules });
  try {
    const file = path.join(ctx.workspace, '.vscode/settings.json');
    const settings = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ ...settings, 'judgeStudio.endpoint.baseUrl': fake.baseURL, 'judgeStudio.endpoint.model': 'fake-judge' }, null, 2));
    await judgeAnswers(ctx);
    fake.requests.length = 0;
    await body(fake);
  } finally {
    await fake.close();
  }
}

/**
 * The endpoint settings were written after the workbench loaded: Test Judge Connection, as a user
 * would, until the fake judge answers (the settings are live) or the deadline passes.
 */
export async function judgeAnswers(ctx: UiContext, timeoutMs = 40_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await ctx.runCommand('Judge Studio: Test Judge Connection');
    // Its answer may come as a toast or, when other notifications crowd it, only in the centre.
    const said = await outcome(ctx, /The judge answered in/, { what: 'Test Judge Connection', timeoutMs: 8_000 }).then(() => '', (e: unknown) => (e as Error).message);
    await clearNotifications(ctx);
    if (!said) return;
    if (Date.now() > deadline) throw new Error(`the fake judge never answered Test Judge Connection: the endpoint settings did not take effect (${said})`);
  }
}

/** Waits until the run view shows a verdict (or an error) and returns the frame it lives in. */
export async function verdictFrame(ctx: UiContext, kind: string, timeoutMs = 30_000): Promise<Frame> {
  const verdict = await ctx.findInFrames(`main[data-phase] section.verdict[data-kind="${kind}"]`, timeoutMs).catch(async (e: unknown) => {
    const shown = await ctx.findInFrames('section.verdict', 1_000).then((l) => l.innerText(), () => 'no verdict at all');
    throw new Error(`${(e as Error).message}; the run view shows: ${shown.slice(0, 400)}`);
  });
  const frame = await (await verdict.elementHandle())?.ownerFrame();
  if (!frame) throw new Error('the verdict is in no frame');
  return frame;
}

/** Opens the Judge Studio side panel (unless it is showing) and waits for a history row whose text matches. */
export async function historyRow(ctx: UiContext, text: RegExp): Promise<Locator> {
  const sidebar = ctx.page.locator('.part.sidebar');
  // With one view in the container, VS Code titles the side bar "JUDGE STUDIO: RUN HISTORY" instead of showing a pane header.
  const showing = await sidebar.locator('.composite.title').filter({ hasText: /judge studio/i }).isVisible();
  if (!showing) await ctx.page.locator('.activitybar [aria-label^="Judge Studio"]').first().click();
  const row = sidebar.locator('.monaco-list-row').filter({ hasText: text }).first();
  await row.waitFor({ timeout: 20_000 }).catch(async () => {
    const rows = await sidebar.locator('.monaco-list-row').allInnerTexts();
    throw new Error(`the Run History view has no row matching ${text}; it shows: ${rows.join(' | ') || 'nothing'}`);
  });
  return row;
}

/**
 * Gives the active editor the keyboard focus and waits until the status bar shows its cursor, so a
 * command run next sees it as the active editor. A click on the text can miss (a toast or a hover
 * over that spot, an editor still laying out): then its input area is focused directly.
 */
export async function focusEditor(ctx: UiContext): Promise<void> {
  const editor = ctx.page.locator('.editor-group-container.active .monaco-editor').first();
  await editor.waitFor({ timeout: 20_000 });
  const clicked = await editor.locator('.view-lines').first().click({ position: { x: 5, y: 5 }, timeout: 5_000 }).then(() => true, () => false);
  if (!clicked) await editor.locator('textarea').first().focus();
  await ctx.page.locator('#status\\.editor\\.selection').waitFor({ timeout: 10_000 });
}

/** Puts the cursor of the active editor on 1-based `line` (keyboard only: view lines are not in DOM order). */
export async function gotoLine(ctx: UiContext, line: number): Promise<void> {
  await focusEditor(ctx);
  await ctx.page.keyboard.press('Control+Home');
  for (let i = 1; i < line; i++) await ctx.page.keyboard.press('ArrowDown');
  await ctx.page.keyboard.press('Home');
  await ctx.page.locator('#status\\.editor\\.selection', { hasText: `Ln ${line}, Col 1` }).waitFor({ timeout: 10_000 });
}

export function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}

export async function run(ctx: UiContext): Promise<void> {
  const rules: FakeRule[] = [() => reply({ justification: 'Accurate and complete: a leap year has 366 days.', score: 4 })];
  await withFakeJudge(ctx, rules, async (fake) => {
    fs.writeFileSync(path.join(ctx.workspace, 'notes.md'), '# Draft answers\n\nA leap year has 366 days, with February 29 added.\n');
    await ctx.openFileFromExplorer('helpfulness.judge');
    await ctx.page.locator('#status\\.editor\\.mode').filter({ hasText: 'Judge template' }).waitFor({ timeout: 20_000 });
    // The file was written after the workbench loaded; the explorer lists it once refreshed.
    await ctx.runCommand('Refresh Explorer');
    await ctx.openFileFromExplorer('notes.md');
    await gotoLine(ctx, 3);
    await ctx.page.keyboard.press('Shift+End');
    // Two pointwise templates fit a plain selection: it asks, the last focused template first.
    await startCommand(ctx.page, 'Judge Studio: Run Judge on Selection', 'with which template?');
    await pick(ctx.page, 'helpfulness.judge');

    const frame = await verdictFrame(ctx, 'pointwise');
    const score = (await frame.locator('.score .value').textContent()) ?? '';
    const of = (await frame.locator('.score .of').textContent()) ?? '';
    expect(score === '4' && of.trim() === '/ 5', `the score reads "${score}${of}"`);
    expect((await frame.locator('.scale li.current').textContent()) === '4', 'the scale strip marks 4');
    const justification = (await frame.locator('.verdict .justification').textContent()) ?? '';
    expect(justification === 'Accurate and complete: a leap year has 366 days.', `the justification reads "${justification}"`);
    const source = (await frame.locator('.about .source').textContent()) ?? '';
    expect(source === 'selection in notes.md', `the sample reads "${source}"`);
    const sent = fake.chats[0]?.prompt ?? '';
    expect(sent.includes('A leap year has 366 days, with February 29 added.'), 'the highlighted text was sent as the response');
    await frame.locator('details.messages summary').click();
    await frame.locator('details.messages article.message[data-role="user"] pre.content').waitFor({ timeout: 5_000 });
    await ctx.screenshot('run-pointwise-verdict');

    await frame.locator('button.action', { hasText: 'Copy result as JSON' }).click();
    await frame.locator('.toolbar .copied', { hasText: 'Copied' }).waitFor({ timeout: 10_000 });

    // Re-run with a slow judge: the live status shows the call in flight until Cancel stops it.
    fake.rules = [() => ({ ...reply({ justification: 'too late', score: 1 }), delayMs: 60_000 })];
    await frame.locator('button.action', { hasText: 'Re-run' }).click();
    await frame.locator('main[data-phase="running"] .status .pass-state[data-state="sent"]').waitFor({ timeout: 20_000 });
    expect((await frame.locator('.status .phase').textContent()) === 'Judging…', 'the status says the judge is working');
    expect((await frame.locator('section.verdict').count()) === 0, 'no verdict is shown while the judge works');
    await ctx.screenshot('run-live-status');
    await frame.locator('button.action', { hasText: 'Cancel' }).click();
    await frame.locator('main[data-phase="cancelled"]').waitFor({ timeout: 10_000 });
    expect(fake.chats.length === 2, `the re-run sent one more request (${fake.chats.length} in all)`);

    const row = await historyRow(ctx, /score 4 \/ 5/);
    const rowText = await row.innerText();
    expect(rowText.includes('fake-judge') && rowText.includes('selection in notes.md'), `the history row names the model and sample: ${rowText}`);
    await ctx.screenshot('run-history-side-panel');
  });
}
