// What the editor says when a batch ends, from its history entry. Pure, so every case is unit-tested;
// ../batchEnd.ts shows it with its buttons.
import type { BatchEntry } from './history';
import { summaryLines } from './summary';

export const OPEN_RESULTS = 'Open Results';
export const CALIBRATE = 'Calibrate';

export interface BatchEndMessage {
  severity: 'info' | 'warning' | 'error';
  text: string;
  /** Button titles, in order. */
  actions: string[];
}

/** `fatal`: why the batch stopped, when it did not finish on its own (not a cancel). */
export function batchEndMessage(entry: BatchEntry, fatal?: string): BatchEndMessage {
  const headline = summaryLines(entry.summary)[0] ?? '';
  const written = entry.rows.judged + entry.rows.alreadyDone;
  const failed = entry.rows.failed ? ` ${entry.rows.failed} row${entry.rows.failed === 1 ? '' : 's'} failed: Calibrate lists them.` : '';
  const skipped = entry.rows.skipped ? ` ${entry.rows.skipped} unreadable record${entry.rows.skipped === 1 ? ' was' : 's were'} skipped (see the log).` : '';
  // Nothing to calibrate or open in an empty file.
  const actions = written > 0 ? [OPEN_RESULTS, CALIBRATE] : [];
  if (fatal) {
    return { severity: 'error', actions, text: `Judge Studio: the batch stopped: ${fatal}. ${entry.rows.judged} row(s) were written to ${entry.results}; run it again and choose Resume to finish.` };
  }
  if (entry.interrupted) {
    return { severity: 'warning', actions, text: `Judge Studio: cancelled after ${entry.rows.judged} row(s) (${headline}). Results so far: ${entry.results}. Run on the dataset again and choose Resume to finish.${failed}` };
  }
  return { severity: 'info', actions, text: `Judge Studio: ${entry.metric} on ${entry.dataset}: ${headline}. Results: ${entry.results}.${failed}${skipped}` };
}
