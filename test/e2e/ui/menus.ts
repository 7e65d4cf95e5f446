// Context menus as a person uses them: right-click a file in the explorer, pick an item by its label.
import type { UiContext } from './driver';

const TIMEOUT_MS = 20_000;

/** Right-clicks `file` (a name at the top of the explorer) and picks the item labelled exactly `item`; `shot` saves the open menu. */
export async function explorerMenu(ctx: UiContext, file: string, item: string, shot?: string): Promise<void> {
  const exact = (t: string) => new RegExp(`^\\s*${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  const row = ctx.page.locator('.explorer-folders-view .monaco-list-row').filter({ has: ctx.page.locator('.label-name', { hasText: exact(file) }) }).first();
  await row.waitFor({ timeout: TIMEOUT_MS }).catch(() => {
    throw new Error(`"${file}" is not in the explorer`);
  });
  const entry = ctx.page.locator('.context-view .action-item .action-label', { hasText: exact(item) }).first();
  const deadline = Date.now() + TIMEOUT_MS;
  // The menu is built from the extension's contributions: a right-click right after the window
  // opens can show a menu without them. Close it and ask again until the deadline.
  // A menu can also close under the pointer before the click lands (a hover over the explorer row
  // beneath it, once seen in CI): the click is bounded and the menu asked for again.
  for (;;) {
    await row.click({ button: 'right' });
    if (await entry.waitFor({ timeout: 3_000 }).then(() => true, () => false)) {
      if (shot) await ctx.screenshot(shot);
      if (await entry.click({ timeout: 5_000 }).then(() => true, () => false)) return;
    }
    if (Date.now() > deadline) {
      const shown = await ctx.page.locator('.context-view .action-item .action-label').allTextContents();
      throw new Error(`the explorer menu of ${file} has no "${item}" that takes a click; it shows: ${shown.filter(Boolean).join(' | ') || 'nothing'}`);
    }
    await ctx.page.keyboard.press('Escape');
  }
}
