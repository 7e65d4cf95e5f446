// The compare view in the real workbench: pick two runs of a judge, read the verdict line, the
// figures and the transition heat map, show a flipped row's two justifications, and open the
// template diff on the snapshots under .judge-studio/templates/.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UiContext } from './driver';
import { pick, startCommand, waitForStep } from './quickInput';

export const title = 'the compare view shows two runs side by side, a flipped row, and the template diff';
export const timeoutMs = 120_000;

const M = 'quality';
const TEMPLATE_A = '---\nname: quality\nkind: pointwise\nscale: [1, 5]\n---\n# Rubric\n- 5: Perfect.\n- 1: Bad.\n';
const TEMPLATE_B = TEMPLATE_A.replace('- 5: Perfect.', '- 5: Fully correct and complete.');
const HASH_A = 'aaaaaaaaaaaa';
const HASH_B = 'bbbbbbbbbbbb';

/** 40 rows; humans say 1 + i % 5; A is right on every other row, B on all but every tenth. */
function run(side: 'a' | 'b'): string {
  const lines: string[] = [];
  for (let i = 1; i <= 40; i++) {
    const human = 1 + (i % 5);
    const right = side === 'a' ? i % 2 === 0 : i % 10 !== 0;
    const score = right ? human : (human % 5) + 1;
    lines.push(JSON.stringify({
      prompt: `Question ${i}`, response: `Answer ${i}`, _row: i,
      [`${M}/score`]: score, [`${M}/human_rating`]: human,
      [`${M}/justification`]: `${side.toUpperCase()} says ${score} for row ${i} <b>bold?</b>`,
      [`${M}/template_hash`]: side === 'a' ? HASH_A : HASH_B,
    }));
  }
  return lines.join('\n') + '\n';
}

export async function run_(ctx: UiContext): Promise<void> {
  const dir = path.join(ctx.workspace, 'runs');
  fs.mkdirSync(path.join(ctx.workspace, '.judge-studio', 'templates'), { recursive: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'before.results.jsonl'), run('a'));
  fs.writeFileSync(path.join(dir, 'after.results.jsonl'), run('b'));
  fs.writeFileSync(path.join(ctx.workspace, '.judge-studio', 'templates', `${HASH_A}.judge`), TEMPLATE_A);
  fs.writeFileSync(path.join(ctx.workspace, '.judge-studio', 'templates', `${HASH_B}.judge`), TEMPLATE_B);

  await startCommand(ctx.page, 'Judge Studio: Compare Runs', 'Compare Runs: the first run (A, before)');
  await pick(ctx.page, 'runs/before.results.jsonl');
  await waitForStep(ctx.page, 'Compare Runs: the second run (B, after)');
  await pick(ctx.page, 'runs/after.results.jsonl');

  const verdict = await ctx.findInFrames('p.verdict', 30_000);
  const line = (await verdict.textContent()) ?? '';
  expect(/^B is better than A: balanced accuracy/.test(line), `verdict line: ${line}`);
  const acc = await ctx.findInFrames('table.figures tr[data-key="accuracy"]');
  expect(((await acc.textContent()) ?? '').includes('0.500') && ((await acc.textContent()) ?? '').includes('0.900'), `accuracy row: ${await acc.textContent()}`);
  const flips = await ctx.findInFrames('.card[data-key="flipped"] .value');
  expect((await flips.textContent()) === '24', `flipped: ${await flips.textContent()}`);

  await (await ctx.findInFrames('li.flip[data-row="1"] button')).click();
  const detail = await ctx.findInFrames('.detail[data-row="1"]', 10_000);
  const both = (await detail.textContent()) ?? '';
  expect(both.includes('A says 3 for row 1 <b>bold?</b>') && both.includes('B says 2 for row 1'), `both justifications, as text: ${both}`);
  await ctx.screenshot('compare-view');

  await (await ctx.findInFrames('button:has-text("Show Template Diff")')).click();
  await ctx.page.locator('.tabs-container .tab').filter({ hasText: `Template ${HASH_A} ↔ ${HASH_B}` }).first().waitFor({ timeout: 20_000 });
  // The diff shows the rubric line that changed between the two versions.
  await ctx.page.locator('.monaco-diff-editor .view-line').filter({ hasText: 'Fully correct and complete.' }).first().waitFor({ timeout: 20_000 });
  await ctx.screenshot('compare-template-diff');
}
export { run_ as run };

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
