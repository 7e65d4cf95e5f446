// The calibration view of a panel's results in the real workbench: the judge × judge kappa heat
// map, the agreement figures and each judge beside the panel, with the reference's numbers.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UiContext } from './driver';
import { expect } from './run.ui';

export const title = 'the calibration view of a panel shows the judge × judge kappa heat map and each judge against the humans';
export const timeoutMs = 120_000;

const ROOT = path.resolve(__dirname, '../../../..');

export async function run(ctx: UiContext): Promise<void> {
  const ref = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/reference/panel_reference.json'), 'utf8')) as {
    pairwise: { figures: { judges: string[]; cohen_kappa: number[][]; fleiss_kappa: number; effective_judges: number } };
  };
  fs.copyFileSync(path.join(ROOT, 'test/fixtures/panel/pairwise.results.jsonl'), path.join(ctx.workspace, 'panel.results.jsonl'));
  await ctx.runCommand('Refresh Explorer');
  await ctx.openFileFromExplorer('panel.results.jsonl');
  await ctx.runCommand('Judge Studio: Calibrate Judge');

  const heat = await ctx.findInFrames('section.panel table.panel-kappa', 30_000);
  const head = await heat.locator('thead th').allTextContents();
  const e = ref.pairwise.figures;
  expect(head.join(' | ') === ['judge × judge κ', ...e.judges].join(' | '), `the heat map header reads ${head.join(' | ')}`);
  const cell = await heat.locator('tbody tr').nth(0).locator('td').nth(1).textContent();
  expect(cell === e.cohen_kappa[0]![1]!.toFixed(3), `κ(llama3, qwen2) reads ${cell}, the reference says ${e.cohen_kappa[0]![1]}`);
  const facts = (await (await ctx.findInFrames('section.panel dl.panel-facts')).innerText()).replace(/\s+/g, ' ');
  expect(facts.includes(`Fleiss' κ ${e.fleiss_kappa.toFixed(3)}`), `facts: ${facts}`);
  expect(facts.includes(`Effective independent judges ${e.effective_judges.toFixed(3)} of 3`), `facts: ${facts}`);
  const perJudge = await (await ctx.findInFrames('section.panel table.per-judge')).locator('tbody th').allTextContents();
  expect(perJudge.join(' | ') === ['panel', ...e.judges].join(' | '), `per-judge rows: ${perJudge.join(' | ')}`);
  await heat.scrollIntoViewIfNeeded();
  await ctx.screenshot('calibrate-panel');
}
