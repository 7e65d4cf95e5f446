// Review in Restricted Mode: the folder is a git repository whose own config names a user, but git
// is never run in an untrusted folder (a repository's config can make git run programs), so the
// reviewer is the OS user. Labelling still works: it only appends to the labels file.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { rowKey } from '../../../src/core/results';
import type { UiContext } from './driver';
import { explorerMenu } from './menus';

export const title = 'in Restricted Mode the review names the OS user as the reviewer and never asks git';
export const trusted = false;
export const timeoutMs = 120_000;

const FILE = 'helpfulness.results.jsonl';
const REPO_USER = 'Repository Config User';

export async function run(ctx: UiContext): Promise<void> {
  const ws = ctx.workspace;
  execFileSync('git', ['init', '-q'], { cwd: ws });
  execFileSync('git', ['config', 'user.name', REPO_USER], { cwd: ws });
  const record: Record<string, unknown> = { prompt: 'How many days are in a leap year?', response: 'A leap year has 366 days.', _row: 1 };
  record._key = rowKey(record, ['prompt', 'response']);
  fs.writeFileSync(path.join(ws, FILE), JSON.stringify({ ...record, 'helpfulness/score': 5, 'helpfulness/justification': 'Correct.' }) + '\n');
  await ctx.runCommand('Refresh Explorer');

  await explorerMenu(ctx, FILE, 'Review Judgments');
  const who = await ctx.findInFrames('.who', 30_000);
  const text = (await who.textContent()) ?? '';
  const osUser = os.userInfo().username;
  expect(!text.includes(REPO_USER), `the repository's git user.name was read in Restricted Mode: ${text}`);
  expect(text.startsWith(`as ${osUser} →`), `the reviewer is the OS user "${osUser}": ${text}`);
  await ctx.screenshot('review-untrusted-annotator');

  const item = await ctx.findInFrames('section.item');
  await item.locator('.item-head').click();
  await ctx.page.keyboard.press('5');
  await (await ctx.findInFrames('.progress[data-labelled="1"]')).waitFor({ timeout: 10_000 });
  const deadline = Date.now() + 10_000;
  const labels = path.join(ws, 'helpfulness.labels.jsonl');
  while (!(fs.existsSync(labels) && fs.readFileSync(labels, 'utf8').includes(`"annotator":"${osUser}"`))) {
    if (Date.now() > deadline) throw new Error(`the labels file does not name ${osUser}: ${fs.existsSync(labels) ? fs.readFileSync(labels, 'utf8') : 'no file'}`);
    await ctx.page.waitForTimeout(100); // poll interval, bounded by the deadline
  }
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
