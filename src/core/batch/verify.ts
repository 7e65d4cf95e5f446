// A batch state is a file anyone can edit or download: it is checked, not trusted. Its template
// must still have the hash it recorded, its metric must be that template's metric (it names the
// default results file), and every provider batch must run the input file the state uploaded and
// carry the state's metadata — a batch id pointing at another job's batch is refused.
import { judgeFromTemplate, type PreparedJudge } from '../judge/engine/prepare';
import { parseTemplate } from '../template/parse';
import { validateTemplate } from '../template/validate';
import { templateHash } from '../results/keys';
import type { RemoteBatch } from './api';
import { BatchStateError, type BatchEntry, type BatchState } from './state';

const METRIC = /^[a-z][a-z0-9_]*$/;

/** The judge of a state's template snapshot, after checking the snapshot and the metric. */
export function judgeOfState(state: BatchState, stateFile: string): PreparedJudge {
  const hash = templateHash(state.template.text);
  if (hash !== state.template.hash) {
    throw new BatchStateError(
      'state-invalid',
      `the template saved in ${stateFile} has version ${hash}, but the state says it submitted version ${state.template.hash}: ` +
        'the state was edited after submit. Collect needs the template exactly as submitted; restore the state file, or submit again',
    );
  }
  const template = parseTemplate(state.template.text);
  const errors = validateTemplate(template).filter((d) => d.severity === 'error');
  if (errors.length > 0 || !template.config) {
    throw new BatchStateError('state-invalid', `the template saved in ${stateFile} no longer validates (${errors[0]?.message ?? 'no front matter'})`);
  }
  const judge = judgeFromTemplate(template);
  if (!METRIC.test(state.metric) || state.metric !== judge.metric) {
    throw new BatchStateError(
      'state-invalid',
      `${stateFile} names the metric ${JSON.stringify(state.metric)}, but its template is metric "${judge.metric}"; the state was edited after submit`,
    );
  }
  return judge;
}

/** The metadata submit gives every batch it creates. */
export function batchMetadata(state: BatchState, entry: BatchEntry): Record<string, string> {
  return {
    judge_studio_metric: state.metric,
    judge_studio_template: state.template.hash,
    judge_studio_part: String(entry.part),
    ...(state.nonce !== undefined ? { judge_studio_nonce: state.nonce } : {}),
  };
}

/** Refuses a provider batch that is not the one this state's part created. */
export function checkRemote(state: BatchState, entry: BatchEntry, remote: RemoteBatch, stateFile: string): void {
  const differs = (what: string, want: string, got: string) =>
    new BatchStateError(
      'batch-mismatch',
      `batch ${remote.id} (part ${entry.part} in ${stateFile}) ${what} ${got}, but this state ${what === 'runs the input file' ? 'uploaded' : 'expects'} ${want}: ` +
        'the state points at another job\'s batch. Nothing was collected; restore the state file, or submit again',
    );
  if (remote.id !== entry.id) throw differs('has the id', String(entry.id), remote.id);
  if (entry.fileId !== undefined && remote.inputFileId !== undefined && remote.inputFileId !== entry.fileId) {
    throw differs('runs the input file', entry.fileId, remote.inputFileId);
  }
  if (entry.fileId !== undefined && remote.inputFileId === undefined) {
    throw new BatchStateError('batch-mismatch', `the provider did not say which input file batch ${remote.id} runs, so it cannot be matched to part ${entry.part}; nothing was collected`);
  }
  const want = batchMetadata(state, entry);
  for (const [k, v] of Object.entries(want)) {
    const got = remote.metadata?.[k];
    if (got !== undefined && got !== v) throw differs(`has ${k} =`, v, got);
  }
}
