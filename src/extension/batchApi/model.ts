// What the side panel shows of a provider batch job, from its state file alone (no vscode here):
// one headline per job, one line per part, and whether it is time to collect.
import { missingBatchApiStatus } from '../../core/batch/api';
import { isTerminal, type BatchState } from '../../core/batch/state';
import { redactUrl } from '../../core/judge/transport/endpoint';

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

function counts(state: BatchState): { total: number; done: number; failed: number } {
  const mains = state.batches.filter((b) => b.kind === 'main');
  return {
    total: mains.reduce((n, b) => n + (b.requestCounts?.total || b.requests), 0),
    done: mains.reduce((n, b) => n + (b.requestCounts ? b.requestCounts.completed + b.requestCounts.failed : 0), 0),
    failed: mains.reduce((n, b) => n + (b.requestCounts?.failed ?? 0), 0),
  };
}

/** "81000/100000 requests": how far the provider is with the main batches. */
export function requestProgress(state: BatchState): string {
  const { done, total } = counts(state);
  return `${done}/${total} requests`;
}

export function jobView(state: BatchState, dataset: string): JobView {
  const phase = jobPhase(state);
  const { failed } = counts(state);
  // The status leads the label: a narrow side bar cuts the description first.
  const progress = phase === 'running' ? `${requestProgress(state)} · ` : '';
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

/**
 * What a failed Batch API call means for the user. A server without the Files or Batches API
 * (Ollama, vLLM, LM Studio, llama.cpp) answers 404 (or 405/501) to the first upload: that is "this
 * endpoint has no Batch API", by the SDK's status, never by the words of its message.
 */
export function batchErrorMessage(e: unknown, baseURL: string): string {
  const status = missingBatchApiStatus(e);
  if (status !== undefined) {
    return (
      `${redactUrl(baseURL)} has no Batch API (it answered HTTP ${status} to a Files/Batches request). ` +
      'The Batch API is OpenAI\'s and Azure OpenAI\'s; for this endpoint use "Run Judge on Dataset", which sends the same requests one by one'
    );
  }
  return e instanceof Error ? e.message : String(e);
}

export interface RefreshOutcome {
  metric: string;
  /** The job's phase after the refresh; undefined when the provider could not be asked. */
  phase?: JobPhase;
  /** Requests done of the total, while running. */
  progress?: string;
  /** Rows collected by this refresh. */
  collected?: number;
  error?: string;
}

/** One line for the end of "Refresh Batch Status": what each job it asked about is doing now. */
export function refreshSummary(outcomes: readonly RefreshOutcome[], skipped: number): string {
  if (outcomes.length === 0) {
    return skipped
      ? `Judge Studio: no batch job is waiting (${skipped} already collected); nothing to ask the provider.`
      : 'Judge Studio: there are no batch jobs to refresh; start one with "Run on Dataset via Batch API".';
  }
  const parts = outcomes.map((o) => {
    if (o.error) return `${o.metric}: could not be checked (${o.error})`;
    const collected = o.collected ? `, ${o.collected} row(s) collected` : '';
    return `${o.metric}: ${PHASE_TEXT[o.phase ?? 'running']}${o.progress ? ` (${o.progress})` : ''}${collected}`;
  });
  return `Judge Studio: batch status refreshed: ${parts.join('; ')}.`;
}
