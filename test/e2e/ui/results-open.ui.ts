// The product's own results files open in the Results Viewer: a dataset run ends in it, the end
// notification's Open Results opens it, and the editor-title button is offered for a results file
// under any name (its first record says what it is), but not for a plain dataset; a file named as
// results opens in the viewer from the Explorer, and the viewer's title button opens it as text.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { reply, type FakeRule } from '../../support/fakeOpenAI';
import type { UiContext } from './driver';
import { expect, focusEditor, withFakeJudge } from './run.ui';

export const title = 'a dataset run opens its results in the Results Viewer, a results file clicked in the Explorer opens there too, and the title buttons switch to text and back';
export const timeoutMs = 180_000;

const VIEWER_BUTTON = '.editor-group-container.active .editor-actions .action-label[aria-label^="Open in Results Viewer"]';
const AS_TEXT_BUTTON = '.editor-group-container.active .editor-actions .action-label[aria-label^="Open Results as Text"]';

export async function run(ctx: UiContext): Promise<void> {
  const rules: FakeRule[] = [(r) => reply({ justification: `Judged: ${r.prompt.length % 7}.`, score: 1 + (r.prompt.length % 5) })];
  const rows = fs.readFileSync(path.join(ctx.workspace, 'helpfulness.jsonl'), 'utf8').trim().split('\n').length;
  await withFakeJudge(ctx, rules, async () => {
    // A plain dataset is not a results file: no viewer button.
    await ctx.openFileFromExplorer('helpfulness.jsonl');
    await ctx.page.locator('.editor-group-container.active .editor-actions').first().waitFor({ timeout: 10_000 });
    expect((await ctx.page.locator(VIEWER_BUTTON).count()) === 0, 'a plain dataset offers no Results Viewer button');

    // Run on the whole dataset: the results open in the viewer at the end.
    await focusEditor(ctx);
    await ctx.runCommand('Judge Studio: Run Judge on Dataset');
    const resultsTab = ctx.page.locator('.tabs-container .tab.active').filter({ hasText: /^helpfulness-helpfulness-\d{8}-\d{6}\.jsonl/ });
    await resultsTab.waitFor({ timeout: 60_000 });
    await viewerShows(ctx, rows, /^\.judge-studio\/results\/helpfulness-/);
    await ctx.screenshot('results-open-after-run');

    // Open Results in the end notification opens the viewer again, once it was closed.
    const toast = ctx.page.locator('.notifications-toasts .notification-toast').filter({ hasText: /Results: \.judge-studio\/results\// });
    await resultsTab.hover();
    await resultsTab.locator('.tab-actions .action-label').first().click();
    await resultsTab.waitFor({ state: 'detached', timeout: 10_000 });
    if (!(await toast.isVisible())) await ctx.runCommand('Notifications: Show Notifications');
    const center = ctx.page.locator('.notifications-toasts .notification-toast, .notifications-center .notification-list-item').filter({ hasText: /Results: \.judge-studio\/results\// }).first();
    await center.getByRole('button', { name: 'Open Results' }).click();
    await resultsTab.waitFor({ timeout: 20_000 });
    await viewerShows(ctx, rows, /^\.judge-studio\/results\/helpfulness-/);

    // A results file under a name of the user's choosing: the first record carries _row and _key.
    const written = fs.readdirSync(path.join(ctx.workspace, '.judge-studio/results')).find((f) => f.endsWith('.jsonl')) ?? '';
    fs.mkdirSync(path.join(ctx.workspace, 'runs'), { recursive: true });
    fs.copyFileSync(path.join(ctx.workspace, '.judge-studio/results', written), path.join(ctx.workspace, 'runs/june.jsonl'));
    await ctx.runCommand('Refresh Explorer');
    await ctx.openFileFromExplorer('runs/june.jsonl');
    const button = ctx.page.locator(VIEWER_BUTTON).first();
    await button.waitFor({ timeout: 20_000 }).catch(() => {
      throw new Error('runs/june.jsonl is a results file, but its editor title has no Open in Results Viewer button');
    });
    await button.hover();
    await ctx.screenshot('results-open-title-button');
    await button.click();
    await viewerShows(ctx, rows, /^runs\/june\.jsonl$/);
    await ctx.screenshot('results-open-any-name');

    // A file named as Judge Studio names results opens in the viewer from the Explorer, and the
    // viewer's title button opens it as text.
    fs.copyFileSync(path.join(ctx.workspace, 'runs/june.jsonl'), path.join(ctx.workspace, 'runs/july.results.jsonl'));
    await ctx.runCommand('Refresh Explorer');
    await ctx.openFileFromExplorer('runs/july.results.jsonl');
    await viewerShows(ctx, rows, /^runs\/july\.results\.jsonl$/);
    await ctx.screenshot('results-open-explorer-click');
    await ctx.page.locator(AS_TEXT_BUTTON).first().click();
    await ctx.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().waitFor({ timeout: 20_000 });
    const line = ctx.page.locator('.editor-group-container.active .monaco-editor .view-line').filter({ hasText: '"_row"' }).first();
    await line.waitFor({ timeout: 20_000 }).catch(() => {
      throw new Error('Open Results as Text did not show the file as text');
    });
    await ctx.screenshot('results-open-as-text');
  });
}

/** The Results Viewer of `file` (its title names it, not another viewer in a hidden tab) shows every row. */
async function viewerShows(ctx: UiContext, rows: number, file: RegExp, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of ctx.page.frames()) {
      const title = frame.locator('.title strong').filter({ hasText: file });
      if (!(await title.count().catch(() => 0))) continue;
      const count = frame.locator(`.toolbar .count:text-is("${rows} of ${rows} rows")`);
      await count.waitFor({ timeout: 20_000 });
      return;
    }
    if (Date.now() > deadline) {
      const shown = await ctx.findInFrames('.title strong', 1_000).then((l) => l.textContent(), () => 'no Results Viewer');
      throw new Error(`no Results Viewer of ${file}; one shows: ${shown}`);
    }
    await ctx.page.waitForTimeout(150); // poll interval, bounded by the deadline
  }
}
