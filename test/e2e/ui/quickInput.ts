// Helpers for UI tests of commands that ask through quick inputs. The driver's runCommand waits
// for the palette to close, which never happens when the command opens its own quick input in
// the same widget; these wait for the step's title instead.
import type { Page } from 'playwright-core';

const TIMEOUT_MS = 20_000;

/**
 * Runs a command from the palette and waits until its first quick input, titled `step`, shows.
 * Right after the workbench opens, extension commands may not be in the palette yet: the
 * palette is reopened until the command is listed or the deadline passes.
 */
export async function startCommand(page: Page, title: string, step: string): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  const input = page.locator('.quick-input-widget input');
  for (;;) {
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: TIMEOUT_MS });
    await input.fill('>' + title);
    const listed = await row(page, title).waitFor({ timeout: 2_000 }).then(() => true, () => false);
    if (listed) break;
    if (Date.now() > deadline) throw new Error(`"${title}" is not in the palette; it shows: ${await shown(page)}`);
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: TIMEOUT_MS });
  }
  await pick(page, title);
  await waitForStep(page, step);
}

function row(page: Page, label: string) {
  const exact = new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  return page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exact }) }).first();
}

async function shown(page: Page): Promise<string> {
  const labels = await page.locator('.quick-input-list .monaco-list-row .label-name').allTextContents();
  return labels.slice(0, 8).join(' | ') || 'nothing';
}

/** Waits until the quick input's title contains `step`. */
export async function waitForStep(page: Page, step: string): Promise<void> {
  await page.locator('.quick-input-widget .quick-input-title').filter({ hasText: step }).waitFor({ state: 'visible', timeout: TIMEOUT_MS });
}

/** Clicks the quick-pick row whose label is exactly `label`. */
export async function pick(page: Page, label: string): Promise<void> {
  const match = row(page, label);
  try {
    await match.waitFor({ timeout: TIMEOUT_MS });
  } catch {
    throw new Error(`"${label}" is not in the quick pick; it shows: ${await shown(page)}`);
  }
  await match.click();
}

/** Types into the open quick input and presses Enter. */
export async function answer(page: Page, text: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  await input.fill(text);
  await input.press('Enter');
}
