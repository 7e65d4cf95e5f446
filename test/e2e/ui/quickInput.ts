// Helpers for UI tests of commands that ask through quick inputs. The driver's runCommand waits
// for the palette to close, which never happens when the command opens its own quick input in
// the same widget; these wait for the step's title instead.
import type { Locator, Page } from 'playwright-core';

const TIMEOUT_MS = 20_000;

/**
 * Runs a command from the palette and waits until its first quick input, titled `step`, shows.
 */
export async function startCommand(page: Page, title: string, step: string): Promise<void> {
  await typeCommand(page, title);
  await pick(page, title);
  await waitForStep(page, step);
}

/**
 * Opens the command palette and types `>title` until the command's row is listed, or the deadline
 * passes. Every step is bounded and asked again when it fails, as a person would:
 * - an F1 can be lost (the keyboard focus in transit between a closing notification centre and the
 *   editor, on a loaded machine): the palette never opened in 1 of 5 clean-clone runs of batch-api;
 * - the palette can close between opening and typing (it closes when the focus leaves it, and a
 *   clicked editor tab takes the focus a moment later): a CI run of batch-api waited the whole 30 s
 *   for a hidden input to be typed into;
 * - right after the workbench opens, extension commands may not be in an open palette yet.
 * Returns with the palette open and the command's row listed; the caller picks it or presses Enter.
 */
export async function typeCommand(page: Page, title: string, timeoutMs = 2 * TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const input = page.locator('.quick-input-widget input').first();
  const listed = row(page, title);
  let lastProblem = '';
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    const opened = await input.waitFor({ state: 'visible', timeout: 4_000 }).then(() => true, () => false);
    if (!opened) lastProblem = `the command palette did not open after F1 (attempt ${attempt}); the keyboard focus is on ${await focusedElement(page)}`;
    else if (!(await input.fill('>' + title, { timeout: 5_000 }).then(() => true, () => false))) lastProblem = `the command palette closed before "${title}" could be typed (attempt ${attempt})`;
    else if (await listed.waitFor({ timeout: 2_000 }).then(() => true, () => false)) return;
    else lastProblem = `"${title}" is not in the palette; it shows: ${await shown(page)}`;
    if (Date.now() > deadline) throw new Error(lastProblem);
    await page.keyboard.press('Escape'); // closes whatever took the key (a hover, a menu, the palette), then ask again
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 4_000 }).catch(() => undefined);
  }
}

async function focusedElement(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''}` : 'nothing';
  }).catch(() => 'unknown');
}

function row(page: Page, label: string) {
  const exact = new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  return page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exact }) }).first();
}

async function shown(page: Page): Promise<string> {
  const title = ((await page.locator('.quick-input-widget .quick-input-title').first().textContent().catch(() => '')) ?? '').trim();
  const labels = await page.locator('.quick-input-list .monaco-list-row .label-name').allTextContents().catch(() => []);
  return `${title ? `(titled "${title}") ` : ''}${labels.slice(0, 8).join(' | ') || 'no rows'}`;
}

/** Waits until the quick input's title contains `step`. */
export async function waitForStep(page: Page, step: string): Promise<void> {
  await page.locator('.quick-input-widget .quick-input-title').filter({ hasText: step }).waitFor({ state: 'visible', timeout: TIMEOUT_MS }).catch(async () => {
    const open = await page.locator('.quick-input-widget').isVisible();
    throw new Error(`no quick input titled "${step}" within ${TIMEOUT_MS / 1000} s; ${open ? `the quick input shows ${await shown(page)}` : 'no quick input is open'}`);
  });
}

/** Picks the quick-pick row whose label is exactly `label` (see `accept`). */
export async function pick(page: Page, label: string): Promise<void> {
  await accept(page, row(page, label), `"${label}"`);
}

/** Picks the first quick-pick row whose text (label, description, detail) contains `text`. */
export async function pickRowWith(page: Page, text: string): Promise<void> {
  await accept(page, page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: text }).first(), `a row with "${text}"`);
}

/**
 * Picks `match` as the keyboard does: moves the list's focus onto it with the arrow keys, then
 * Enter, and waits until the row is gone (the pick closed or moved on). A pointer click on a row
 * can land while the list is redrawn (its items arrive, a filter applies) and then picks nothing
 * or closes the pick; the keyboard acts on the row the list itself marks as focused.
 */
export async function accept(page: Page, match: Locator, what: string): Promise<void> {
  try {
    await match.waitFor({ timeout: TIMEOUT_MS });
  } catch {
    throw new Error(`${what} is not in the quick pick; it shows: ${await shown(page)}`);
  }
  const focused = match.and(page.locator('.monaco-list-row.focused'));
  const rows = await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').count();
  // The input keeps the keyboard focus while the arrows move the list's focus (wrapping at the end).
  for (let step = 0; !(await focused.count()); step++) {
    if (step > rows + 50) throw new Error(`the arrow keys never reached ${what} in the quick pick; it shows: ${await shown(page)}`);
    await page.locator('.quick-input-widget input').first().press('ArrowDown');
  }
  await page.locator('.quick-input-widget input').first().press('Enter');
  await match.waitFor({ state: 'hidden', timeout: TIMEOUT_MS }).catch(async () => {
    throw new Error(`Enter on ${what} left the quick pick open; it shows: ${await shown(page)}`);
  });
}

/**
 * Types `text` into the open input box and presses Enter, then waits until the box closes or moves
 * on to another step (its title changes). The box's own value can arrive after its title (the
 * extension sends a default such as `helpfulness`) and replace what was typed; the value is checked
 * before Enter, and a box still open after Enter is typed into again, once. A box that stays open
 * fails with its validation message, not with a later wait for what the answer should have done.
 */
export async function answer(page: Page, text: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input').first();
  const titleOf = async () => ((await widget.locator('.quick-input-title').first().textContent().catch(() => '')) ?? '').trim();
  const before = await titleOf();
  for (let attempt = 1; ; attempt++) {
    await input.fill(text);
    if ((await input.inputValue().catch(() => '')) !== text) {
      await page.waitForTimeout(200); // the box's own value replaced the text: type it again
      await input.fill(text);
    }
    // An input box accepts only once the extension has validated the value (a round trip to the
    // extension host, slow on a loaded machine); an Enter that is still unanswered after 10 s is
    // pressed again, as a person would, twice at the most.
    await input.press('Enter');
    const deadline = Date.now() + TIMEOUT_MS + 10_000;
    let value = text;
    let presses = 1;
    let pressedAt = Date.now();
    while (Date.now() < deadline) {
      if (!(await widget.isVisible().catch(() => false))) return;
      if ((await titleOf()) !== before) return;
      value = await input.inputValue().catch(() => text);
      if (value !== text && attempt === 1) break; // replaced after Enter: type it again
      if (value === text && presses < 3 && Date.now() - pressedAt > 10_000) {
        await input.press('Enter');
        presses++;
        pressedAt = Date.now();
      }
      await page.waitForTimeout(100); // poll, bounded by the deadline above
    }
    if (value !== text && attempt === 1) {
      // The next step may be drawing its value before its title: give it a moment to show.
      await page.waitForTimeout(300);
      if (!(await widget.isVisible().catch(() => false)) || (await titleOf()) !== before) return;
      continue;
    }
    const message = ((await widget.locator('.quick-input-message').first().textContent().catch(() => '')) ?? '').trim();
    throw new Error(`${presses} Enter presses on "${text}" left the input "${before}" open with "${value}"${message ? ` (it says: ${message})` : ''}`);
  }
}
