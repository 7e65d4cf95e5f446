// Compare Runs from the Run History side panel: two batches selected together (Ctrl+click), then
// "Compare Runs" in their context menu opens the compare view with the older batch as A.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UiContext } from './driver';
import { contextMenu } from './menus';
import { expect, historyRow } from './run.ui';

export const title = 'two batches selected in the Run History open in the compare view, the older as A';
export const timeoutMs = 120_000;

const M = 'quality';

/** 10 rows; the first batch scores every row 3, the second scores rows 1–4 a 4. */
function results(second: boolean): string {
  return Array.from({ length: 10 }, (_, i) =>
    JSON.stringify({ prompt: `q${i + 1}`, response: `a${i + 1}`, _row: i + 1, [`${M}/score`]: second && i < 4 ? 4 : 3, [`${M}/justification`]: `j${i + 1}` }),
  ).join('\n') + '\n';
}

function batch(id: string, time: string, file: string, scores: Record<string, number>, mean: number): string {
  return JSON.stringify({
    v: 1, id, time, template: 'quality.judge', metric: M, kind: 'pointwise', model: 'fake-judge', type: 'batch',
    dataset: 'quality.jsonl', results: file, resumed: false, interrupted: false,
    rows: { judged: 10, ok: 10, failed: 0, skipped: 0, alreadyDone: 0 },
    summary: { kind: 'pointwise', rows: 10, failed: 0, scores, mean }, elapsedMs: 1000,
  });
}

export async function run(ctx: UiContext): Promise<void> {
  const js = path.join(ctx.workspace, '.judge-studio');
  fs.mkdirSync(path.join(js, 'results'), { recursive: true });
  fs.mkdirSync(path.join(js, 'history'), { recursive: true });
  fs.writeFileSync(path.join(js, 'results', 'quality-20240101-090000.jsonl'), results(false));
  fs.writeFileSync(path.join(js, 'results', 'quality-20240102-090000.jsonl'), results(true));
  fs.writeFileSync(
    path.join(js, 'history', `${M}.jsonl`),
    [
      batch('b-old', '2024-01-01T09:00:00.000Z', '.judge-studio/results/quality-20240101-090000.jsonl', { '3': 10 }, 3),
      batch('b-new', '2024-01-02T09:00:00.000Z', '.judge-studio/results/quality-20240102-090000.jsonl', { '3': 6, '4': 4 }, 3.4),
    ].join('\n') + '\n',
  );
  // The view reads the history when it opens (and again when a history file changes).
  const newer = await historyRow(ctx, /^Last batch: quality\.jsonl/);
  const older = await historyRow(ctx, /^Batch: quality\.jsonl/);
  await newer.click();
  await older.click({ modifiers: ['Control'] });
  await ctx.page.locator('.part.sidebar .monaco-list-row.selected').nth(1).waitFor({ timeout: 10_000 });
  await contextMenu(ctx, older, 'Compare Runs', { what: 'the Run History row "Batch: quality.jsonl"', shot: 'history-compare-menu' });

  const head = await ctx.findInFrames('header.head', 30_000);
  const text = (await head.textContent()) ?? '';
  expect(text.includes('A: .judge-studio/results/quality-20240101-090000.jsonl') && text.includes('B: .judge-studio/results/quality-20240102-090000.jsonl'), `the older batch is A: ${text}`);
  const flipped = await ctx.findInFrames('.card[data-key="flipped"] .value');
  expect((await flipped.textContent()) === '4', `flipped: ${await flipped.textContent()}`);
  const shift = await ctx.findInFrames('.card[data-key="mean_shift"] .value');
  expect((await shift.textContent()) === '+0.400', `mean shift: ${await shift.textContent()}`);
  await ctx.screenshot('history-compare-view');
}
