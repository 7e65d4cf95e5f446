// What the side panel shows of a provider batch job, from its state file alone (no vscode here):
// one headline per job, one line per part, and whether it is time to collect.
import { isTerminal, type BatchState } from '../../core/batch/state';

/** State files live here in each workspace folder; the results file sits beside its state. */
export const BATCHES_DIR = '.judge-studio/batches';

export type JobPhase = 'submitting' | 'running' | 'ready' | 'repairing' | 'collected';

export interface JobView {
  phase: JobPhase;
  label: string;
  description: string;
  /** Lines under the job: each part's status, queued repairs. */
  details: string[];
}

/** `pref-20261130-201500.json` → `pref-20261130-201500.results.jsonl`. */
export function resultsFileFor(stateFile: string): string {
  return stateFile.replace(/\.json$/i, '') + '.results.jsonl';
}

export function stateFileName(metric: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${metric}-${stamp}.json`;
}

export function jobPhase(state: BatchState): JobPhase {
  if (!state.submitted) return 'submitting';
  const running = state.batches.some((b) => !isTerminal(b));
  const queued = state.repairs.some((r) => r.part === undefined);
  if (running) return state.batches.some((b) => b.kind === 'repair' && !isTerminal(b)) && state.batches.filter((b) => b.kind === 'main').every(isTerminal) ? 'repairing' : 'running';
  if (queued || state.batches.some((b) => b.kind === 'main' && !b.collected)) return 'ready';
  return 'collected';
}

const PHASE_TEXT: Record<JobPhase, string> = {
  submitting: 'submit interrupted',
  running: 'running',
  repairing: 'repairs running',
  ready: 'finished, not collected',
  collected: 'collected',
};

export function jobView(state: BatchState, dataset: string): JobView {
  const phase = jobPhase(state);
  const mains = state.batches.filter((b) => b.kind === 'main');
  const total = mains.reduce((n, b) => n + (b.requestCounts?.total || b.requests), 0);
  const done = mains.reduce((n, b) => n + (b.requestCounts ? b.requestCounts.completed + b.requestCounts.failed : 0), 0);
  const failed = mains.reduce((n, b) => n + (b.requestCounts?.failed ?? 0), 0);
  // The status leads the label: a narrow side bar cuts the description first.
  const progress = phase === 'running' ? `${done}/${total} requests · ` : '';
  const description = `${progress}${failed ? `${failed} failed · ` : ''}${dataset} · ${state.settings.model}`;
  const details = state.batches.map((b) => {
    const c = b.requestCounts;
    const counts = c ? ` · ${c.completed}/${c.total} done${c.failed ? `, ${c.failed} failed` : ''}` : '';
    return `${b.kind === 'repair' ? 'repairs' : `part ${b.part}`} (rows ${b.rows[0]}–${b.rows[1]}): ${b.status ?? 'not created'}${counts}`;
  });
  const queued = state.repairs.filter((r) => r.part === undefined).length;
  if (queued) details.push(`${queued} invalid repl${queued === 1 ? 'y' : 'ies'} to repair when collected`);
  if (state.renderFailures.length) details.push(`${state.renderFailures.length} row(s) could not be rendered`);
  return { phase, label: `${state.metric}: ${PHASE_TEXT[phase]}`, description, details };
}
