// Notifications as a person reads them: a toast, or the notification centre when no toast came.
//
// A notification is not always a toast. VS Code shows no toast while the notification centre is
// open, and its spam protection skips the toast of a notification that arrives when three others
// appeared in the same 800 ms: such a notification goes straight into the centre, where a
// person who missed the toast finds it (the bell in the status bar). A test that waits for a toast
// alone can wait 30 s for one that will never come; these helpers look in both places.
import type { Locator } from 'playwright-core';
import type { UiContext } from './driver';

const TIMEOUT_MS = 30_000;
/** How long a toast gets before the centre is opened to look there too. */
const TOAST_MS = 5_000;

const ANY = '.notifications-toasts .notification-toast, .notifications-center .notification-list-item';

function items(ctx: UiContext, text: string | RegExp): Locator {
  return ctx.page.locator(ANY).filter({ has: ctx.page.locator('.notification-list-item-message', { hasText: text }) });
}

/** The messages of every notification on screen (toasts and the open centre), for an error. */
export async function shownNotifications(ctx: UiContext): Promise<string> {
  const texts = await ctx.page.locator(`${ANY} .notification-list-item-message`).allTextContents().catch(() => []);
  return [...new Set(texts.map((t) => t.trim()).filter(Boolean))].map((t) => `"${t.slice(0, 200)}"`).join(', ') || 'none';
}

/** Opens the notification centre (the status bar's bell, from the palette). */
export async function openNotificationCentre(ctx: UiContext): Promise<void> {
  const centre = ctx.page.locator('.notifications-center.visible');
  if (await centre.isVisible()) return;
  await ctx.runCommand('Notifications: Show Notifications');
  await centre.waitFor({ timeout: 10_000 }).catch(() => {
    throw new Error('"Notifications: Show Notifications" ran but the notification centre did not open');
  });
}

/**
 * Waits for a notification whose message matches `text`, as a toast or in the notification
 * centre (opened after a few seconds without a toast), and returns it; `.message` reads its text.
 * The error names what was awaited and every notification that was showing instead.
 */
export async function notification(ctx: UiContext, text: string | RegExp, o: { what: string; timeoutMs?: number }): Promise<Locator> {
  const timeout = o.timeoutMs ?? TIMEOUT_MS;
  const deadline = Date.now() + timeout;
  const match = items(ctx, text).first();
  if (await match.waitFor({ timeout: Math.min(TOAST_MS, timeout) }).then(() => true, () => false)) return match;
  await openNotificationCentre(ctx);
  const found = await match.waitFor({ timeout: Math.max(1_000, deadline - Date.now()) }).then(() => true, () => false);
  if (found) return match;
  throw new Error(`no notification ${String(text)} (${o.what}) within ${timeout / 1000} s; notifications: ${await shownNotifications(ctx)}`);
}

/** The text of a notification returned by `notification`. */
export async function message(item: Locator): Promise<string> {
  return ((await item.locator('.notification-list-item-message').first().textContent()) ?? '').trim();
}

/**
 * The end of a command that reports with a notification: waits for the one matching `success`,
 * and fails at once with its words when an error notification comes instead (a refused request,
 * a missing setting), rather than waiting out the deadline for a success that will not come.
 */
export async function outcome(ctx: UiContext, success: string | RegExp, o: { what: string; timeoutMs?: number }): Promise<Locator> {
  const timeout = o.timeoutMs ?? TIMEOUT_MS;
  const error = ctx.page.locator(ANY).filter({ has: ctx.page.locator('.notification-list-item-icon.codicon-error') }).first();
  const good = items(ctx, success).first();
  const deadline = Date.now() + timeout;
  let centre = false;
  for (;;) {
    const left = deadline - Date.now();
    const seen = await good.or(error).first().waitFor({ timeout: Math.max(500, Math.min(centre ? left : TOAST_MS, left)) }).then(() => true, () => false);
    if (seen) {
      if (await good.count()) return good;
      throw new Error(`${o.what} failed: ${await message(error)}`);
    }
    if (Date.now() >= deadline) break;
    if (!centre) {
      await openNotificationCentre(ctx);
      centre = true;
    }
  }
  throw new Error(`no notification ${String(success)} (${o.what}) within ${timeout / 1000} s; notifications: ${await shownNotifications(ctx)}`);
}

/**
 * Clears every notification (as the centre's Clear All does; one still showing progress stays) and
 * waits until the centre is closed, so the next toast is shown as a toast.
 */
export async function clearNotifications(ctx: UiContext): Promise<void> {
  await ctx.runCommand('Notifications: Clear All Notifications');
  await ctx.page.locator('.notifications-center.visible').waitFor({ state: 'hidden', timeout: 10_000 }).catch(async () => {
    throw new Error(`the notification centre stayed open after Clear All Notifications: ${await shownNotifications(ctx)}`);
  });
}
