// Smoke test: the installed VSIX makes VS Code recognise .judge files.
import type { UiContext } from './driver';

export const title = 'an example .judge file opens in the "Judge template" language';

export async function run(ctx: UiContext): Promise<void> {
  await ctx.openFileFromExplorer('helpfulness.judge');
  // The status bar's language indicator names the editor's language by its alias.
  await ctx.page.locator('#status\\.editor\\.mode').filter({ hasText: 'Judge template' }).waitFor({ timeout: 20_000 });
  await ctx.screenshot('smoke-helpfulness-judge');
}
