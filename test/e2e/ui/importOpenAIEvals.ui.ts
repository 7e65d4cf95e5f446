// Import Judge Prompt… with an OpenAI Evals export in the real workbench: pick the JSON in the file
// dialog, choose "OpenAI Evals", and the label_model and score_model graders are written beside it
// and opened; the preview shows the labels the judge must answer, how {{item.x}} and
// {{sample.output_text}} became dataset fields, and the grader's messages filled with a row, and a
// notice counts the graders that were not imported.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UiContext } from './driver';
import { pickSourceFile } from './import.ui';
import { pick } from './quickInput';
import { expect } from './run.ui';

export const title = 'Import Judge Prompt… turns an OpenAI Evals export into templates and shows the labels and field mapping in the preview';
export const timeoutMs = 150_000;

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

export async function run(ctx: UiContext): Promise<void> {
  const { page } = ctx;
  const dir = path.join(ctx.workspace, 'evals');
  fs.mkdirSync(dir, { recursive: true });
  const source = path.join(dir, 'support_eval.json');
  fs.copyFileSync(path.join(ROOT, 'test/fixtures/import/openai_eval.json'), source);
  // A dataset beside the first template, so its preview renders a row.
  const row = { question: 'Can I get a refund after 40 days?', policy: 'Refunds within 30 days of purchase.', response: 'Yes, I have refunded you.' };
  fs.writeFileSync(path.join(dir, 'Policy-compliance.jsonl'), JSON.stringify(row) + '\n');

  await ctx.openFileFromExplorer('helpfulness.judge');
  await page.locator('#status\\.editor\\.mode').filter({ hasText: 'Judge template' }).waitFor({ timeout: 20_000 });
  await pickSourceFile(ctx, source);
  // A .json source puts the OpenAI Evals format first.
  const first = page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name').first();
  await first.waitFor({ timeout: 10_000 });
  expect(((await first.textContent()) ?? '').includes('OpenAI Evals'), `the OpenAI Evals format is offered first for a .json file; first is ${await first.textContent()}`);
  await pick(page, 'OpenAI Evals eval or grader (JSON)');

  await page.locator('.tab').filter({ hasText: 'Preview Policy-compliance.judge' }).first().waitFor({ timeout: 30_000 });
  for (const f of ['Policy-compliance.judge', 'Helpfulness-1-7.judge']) {
    expect(fs.existsSync(path.join(dir, f)), `${f} was written beside the source`);
    await page.locator('.tab').filter({ hasText: f }).first().waitFor({ timeout: 20_000 });
  }
  const toast = page.locator('.notifications-toasts .notification-toast').filter({ hasText: 'Imported 2 template(s) from support_eval.json' });
  await toast.first().waitFor({ timeout: 20_000 });
  expect(/\d+ (errors?|warnings?)( and \d+ warnings?)?, see the Judge Studio output/.test((await toast.first().textContent()) ?? ''), 'the notice points at the graders that were not imported');

  const rule = await ctx.findInFrames('p.verdict-rule', 30_000);
  const ruleText = (await rule.textContent()) ?? '';
  expect(ruleText.includes('exactly one of "compliant", "minor issue", "violation"') && ruleText.includes('Passing labels: "compliant", "minor issue"'), `the preview states the labels; it reads: ${ruleText}`);
  const mapping = await ctx.findInFrames('p.source-mapping');
  const mappingText = (await mapping.textContent()) ?? '';
  expect(mappingText.includes('{{item.question}} → {{question}}') && mappingText.includes('{{sample.output_text}} → {{response}}'), `the preview shows the field mapping; it reads: ${mappingText}`);
  const system = await ctx.findInFrames('article.message[data-role="system"] pre.content');
  expect(((await system.textContent()) ?? '').startsWith('You check support replies against the policy.'), 'the grader\'s system message is sent verbatim');
  const user = await ctx.findInFrames('article.message[data-role="user"] pre.content');
  const userText = (await user.textContent()) ?? '';
  expect(userText.startsWith(`Policy:\n${row.policy}\n\nCustomer asked: ${row.question}\nAgent replied: ${row.response}`), `the user message is the grader's input filled with the row; it reads: ${userText.slice(0, 200)}`);
  await ctx.screenshot('import-openai-evals-preview');
}
