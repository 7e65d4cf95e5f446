// Compare Runs from the Run History after a resume: the picker lists the resumed results file once,
// with the rows of the whole file (not the count the interrupted run had reached), and the compare
// view counts the rows each side failed on instead of leaving them out silently.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UiContext } from './driver';
import { contextMenu } from './menus';
import { pickRowWith, waitForStep } from './quickInput';
import { expect, historyRow } from './run.ui';

export const title = 'the compare picker shows a resumed run once with its whole row count, and the compare view counts failed rows';
export const timeoutMs = 120_000;

const M = 'quality';
const ROWS = 10;

/** Every row scored 3; `failed` rows are errors. */
function results(failed: number[]): string {
  return Array.from({ length: ROWS }, (_, i) => {
    const row = i + 1;
    const verdict = failed.includes(row) ? { [`${M}/score`]: null, [`${M}/error`]: 'timed out', [`${M}/error_kind`]: 'timeout' } : { [`${M}/score`]: 3, [`${M}/justification`]: `j${row}` };
    return JSON.stringify({ prompt: `q${row}`, response: `a${row}`, _row: row, ...verdict });
  }).join('\n') + '\n';
}

function batch(id: string, time: string, file: string, rows: number, o: { interrupted?: boolean; resumed?: boolean; failed?: number } = {}): string {
  const failed = o.failed ?? 0;
  return JSON.stringify({
    v: 1, id, time, template: 'quality.judge', metric: M, kind: 'pointwise', model: 'fake-judge', type: 'batch',
    dataset: 'quality.jsonl', results: file, resumed: o.resumed === true, interrupted: o.interrupted === true,
    rows: { judged: rows, ok: rows - failed, failed, skipped: 0, alreadyDone: 0 },
    summary: { kind: 'pointwise', rows, failed, scores: { '3': rows - failed }, mean: 3 }, elapsedMs: 1000,
  });
}

export async function run(ctx: UiContext): Promise<void> {
  const js = path.join(ctx.workspace, '.judge-studio');
  fs.mkdirSync(path.join(js, 'results'), { recursive: true });
  fs.mkdirSync(path.join(js, 'history'), { recursive: true });
  const resumedFile = '.judge-studio/results/quality-20240101-090000.jsonl';
  const laterFile = '.judge-studio/results/quality-20240103-090000.jsonl';
  fs.writeFileSync(path.join(ctx.workspace, resumedFile), results([]));
  fs.writeFileSync(path.join(ctx.workspace, laterFile), results([2, 7]));
  fs.writeFileSync(
    path.join(js, 'history', `${M}.jsonl`),
    [
      batch('b-cut', '2024-01-01T09:00:00.000Z', resumedFile, 4, { interrupted: true }),
      batch('b-resumed', '2024-01-02T09:00:00.000Z', resumedFile, ROWS, { resumed: true }),
      batch('b-later', '2024-01-03T09:00:00.000Z', laterFile, ROWS, { failed: 2 }),
    ].join('\n') + '\n',
  );
  const latest = await historyRow(ctx, /^Last batch: quality\.jsonl/);
  await contextMenu(ctx, latest, 'Compare Runs', { what: 'the Run History row "Last batch: quality.jsonl"' });

  // The picker: the resumed file once, with the whole file's rows.
  await waitForStep(ctx.page, 'with which run?');
  const rows = ctx.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await rows.first().waitFor({ timeout: 20_000 });
  const listed = await rows.allInnerTexts();
  const resumed = listed.filter((t) => t.includes('quality-20240101-090000.jsonl'));
  expect(resumed.length === 1, `the resumed results file is listed once: ${JSON.stringify(listed)}`);
  expect(/10 rows · mean 3/.test(resumed[0] ?? '') && !/4 rows/.test(resumed[0] ?? ''), `with the whole file's rows: ${resumed[0]}`);
  await ctx.screenshot('history-resume-compare-picker');
  await pickRowWith(ctx.page, 'quality-20240101-090000.jsonl');

  // The compare view: A (the older, resumed run) failed on no row, B on two.
  const failed = await ctx.findInFrames('.card[data-key="failed"] .value', 30_000);
  expect((await failed.textContent()) === '0 / 2', `failed rows A / B: ${await failed.textContent()}`);
  const n = await ctx.findInFrames('.card[data-key="n"] .value');
  expect((await n.textContent()) === '8', `rows with a verdict in both: ${await n.textContent()}`);
  expect(((await (await ctx.findInFrames('.card[data-key="failed"]')).getAttribute('class')) ?? '').includes('worse'), 'B failing more is marked');
  await ctx.screenshot('history-resume-compare-view');
}
