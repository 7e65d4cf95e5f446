// A new batch job's state, for the CLI's `batch submit` and the editor's "Run on Dataset via
// Batch API" alike: the endpoint, the template snapshot, the dataset's fingerprint and the settings.
import * as path from 'node:path';
import type { JudgeSettings } from '../judge/engine/pass';
import type { MaxTokensKey } from '../judge/transport/openaiClient';
import type { PreparedJudge } from '../judge/engine/prepare';
import type { RowRange } from '../judge/run/runner';
import { fingerprint, REQUEST_MAP, STATE_VERSION, type BatchState, type PanelSpec } from './state';

export interface NewJob {
  judge: PreparedJudge;
  templateFile: string;
  dataFile: string;
  stateFile: string;
  baseURL: string;
  azureApiVersion?: string;
  /** The variable the CLI reads the key from (the editor keeps keys in Secret Storage). */
  apiKeyEnv?: string;
  organization?: string;
  settings: JudgeSettings;
  maxTokensKey?: MaxTokensKey;
  samples?: number;
  selection?: RowRange;
  /** A panel of judges at this endpoint. */
  panel?: PanelSpec;
  now?: Date;
}

export async function newJobState(j: NewJob): Promise<BatchState> {
  const azure = j.azureApiVersion !== undefined;
  const rel = (file: string) => path.relative(path.dirname(j.stateFile), file);
  return {
    version: STATE_VERSION,
    createdAt: (j.now ?? new Date()).toISOString(),
    provider: azure ? 'azure' : 'openai',
    baseURL: j.baseURL,
    ...(azure ? { azureApiVersion: j.azureApiVersion } : {}),
    apiKeyEnv: j.apiKeyEnv ?? 'OPENAI_API_KEY',
    ...(j.organization !== undefined ? { organization: j.organization } : {}),
    endpoint: azure ? '/chat/completions' : '/v1/chat/completions',
    metric: j.judge.metric,
    template: { path: rel(j.templateFile), hash: j.judge.templateHash, text: j.judge.template.text },
    data: { path: rel(j.dataFile), ...(await fingerprint(j.dataFile)) },
    settings: { ...j.settings },
    ...(j.panel ? { panel: j.panel } : {}),
    maxTokensKey: j.maxTokensKey ?? 'max_tokens',
    samples: j.samples ?? 1,
    selection: { ...j.selection },
    requestMap: REQUEST_MAP,
    totals: { rows: 0, requests: 0 },
    renderFailures: [],
    submitted: false,
    batches: [],
    repairs: [],
  };
}

/** Where a state's dataset is: its path is kept relative to the state file. */
export function stateDataFile(state: BatchState, stateFile: string): string {
  return path.resolve(path.dirname(stateFile), state.data.path);
}
