// Context menus as a person uses them: right-click something, pick an item by its label.
//
// Why not a pointer click on the item: VS Code's menu ignores a mouse-up on an item that comes
// too soon after the menu opened (so the right-click that opened it cannot also pick the item
// under the pointer), and the menu can be rebuilt while it animates in. A click that lands in
// that window leaves the menu open under the pointer and does nothing: the Compare Runs item of
// the history-resume-compare test failed so in 2 runs of 3 on a quiet machine. Here the item is
// hovered until the menu marks it focused (it is then live), and Enter picks it, as the keyboard
// does; the menu must close, or it is asked for again.
import type { Locator } from 'playwright-core';
import { movePointerAway, type UiContext } from './driver';

const TIMEOUT_MS = 20_000;

function exactly(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

export interface MenuOptions {
  /** What the menu belongs to, for the error ("the Run History row Last batch: …"). */
  what: string;
  /** Saves a screenshot of the open menu under this name. */
  shot?: string;
  timeoutMs?: number;
}

/**
 * Right-clicks `target`, waits for the context menu to offer `item` (its label, exactly), focuses
 * it and presses Enter; resolves once the menu has closed. The menu is built from the extension's
 * contributions: right after the window opens it can lack them, so a menu without the item is
 * closed and asked for again until the deadline. Every wait says what it waited for.
 */
export async function contextMenu(ctx: UiContext, target: Locator, item: string, o: MenuOptions): Promise<void> {
  const { page } = ctx;
  const deadline = Date.now() + (o.timeoutMs ?? TIMEOUT_MS);
  const menu = page.locator('.context-view .monaco-menu');
  const entry = menu.locator('.action-item').filter({ has: page.locator('.action-label', { hasText: exactly(item) }) }).first();
  let last = 'the menu never opened';
  for (;;) {
    const clicked = await target.click({ button: 'right', timeout: 5_000 }).then(() => true, (e: unknown) => {
      // A hover left by the pointer (the explorer's full path under a row) can cover the target.
      last = `the right-click did not land: ${(e as Error).message.split('\n').filter((l) => /intercepts|not visible|not stable|Timeout/.test(l)).slice(-2).join('; ')}`;
      return false;
    });
    if (!clicked) {
      if (Date.now() > deadline) throw new Error(`could not right-click ${o.what} within ${(o.timeoutMs ?? TIMEOUT_MS) / 1000} s; ${last}`);
      await movePointerAway(page);
      continue;
    }
    if (await entry.waitFor({ timeout: 3_000 }).then(() => true, () => false)) {
      if (o.shot) await ctx.screenshot(o.shot);
      if (await focus(entry)) {
        await page.keyboard.press('Enter');
        if (await menu.waitFor({ state: 'hidden', timeout: 5_000 }).then(() => true, () => false)) return;
        last = `"${item}" was focused and Enter pressed, but the menu stayed open`;
      } else {
        last = `"${item}" never took the focus under the pointer`;
      }
    } else {
      const shown = await menu.locator('.action-item .action-label').allTextContents().catch(() => []);
      last = `the menu shows: ${shown.filter((s) => s.trim()).join(' | ') || 'nothing'}`;
    }
    if (Date.now() > deadline) throw new Error(`the context menu of ${o.what} gave no "${item}" to pick within ${(o.timeoutMs ?? TIMEOUT_MS) / 1000} s; ${last}`);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  }
}

/** Hovers `entry` until the menu marks it focused (the class VS Code's menu item sets on hover); false after 3 s. */
async function focus(entry: Locator): Promise<boolean> {
  const focused = entry.and(entry.page().locator('.action-item.focused'));
  const until = Date.now() + 3_000;
  while (Date.now() < until) {
    await entry.hover({ timeout: 2_000 }).catch(() => undefined);
    if (await focused.waitFor({ timeout: 1_000 }).then(() => true, () => false)) return true;
  }
  return false;
}

/** Right-clicks `file` (a name at the top of the explorer) and picks the item labelled exactly `item`; `shot` saves the open menu. */
export async function explorerMenu(ctx: UiContext, file: string, item: string, shot?: string): Promise<void> {
  const row = ctx.page.locator('.explorer-folders-view .monaco-list-row').filter({ has: ctx.page.locator('.label-name', { hasText: exactly(file) }) }).first();
  await row.waitFor({ timeout: TIMEOUT_MS }).catch(() => {
    throw new Error(`"${file}" is not in the explorer`);
  });
  await contextMenu(ctx, row, item, { what: `${file} in the explorer`, shot });
}
