// "Set API Key" from the palette: the origin first (normalised from a full URL), then the key
// in a password box; the confirmation names the origin and the key is never shown.
import type { UiContext } from './driver';
import { answer, pick, startCommand, waitForStep } from './quickInput';

export const title = 'Set API Key asks for the origin, takes the key in a password box and never shows it';

const KEY = 'sk-ui-never-shown-4711';

export async function run(ctx: UiContext): Promise<void> {
  const { page } = ctx;
  await startCommand(page, 'Judge Studio: Set API Key', 'Set API Key (1/2)');
  await answer(page, 'http://127.0.0.1:9999/v1/');
  await waitForStep(page, 'Set API Key (2/2)');
  const type = await page.locator('.quick-input-widget input').getAttribute('type');
  expect(type === 'password', `the key box should be a password input, it is type=${type}`);
  await answer(page, KEY);

  const toast = page.locator('.notifications-toasts .notification-toast.notification-fade-in-done').filter({ hasText: 'API key stored for http://127.0.0.1:9999; it is sent only there.' });
  await toast.waitFor({ state: 'visible', timeout: 20_000 });
  await ctx.screenshot('providers-api-key-stored');
  const shown = (await page.locator('body').innerText()) ?? '';
  expect(!shown.includes(KEY), 'the key appears nowhere in the window');

  // Put the profile back as it was: delete the key through the command's own quick pick.
  await startCommand(page, 'Judge Studio: Clear API Key', 'Judge Studio: Clear API Key');
  await pick(page, 'http://127.0.0.1:9999');
  await page.locator('.notifications-toasts .notification-toast.notification-fade-in-done').filter({ hasText: 'deleted the API key for http://127.0.0.1:9999' }).waitFor({ timeout: 20_000 });
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
