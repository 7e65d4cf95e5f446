// A new batch job's state, for the CLI's `batch submit` and the editor's "Run on Dataset via
// Batch API" alike: the endpoint, the template snapshot, the dataset's fingerprint and the settings.
import * as path from 'node:path';
import type { JudgeSettings } from '../judge/engine/pass';
import type { MaxTokensKey } from '../judge/transport/openaiClient';
import { compositionError } from '../judge/engine/compose';
import type { PreparedJudge } from '../judge/engine/prepare';
import { memberLabels } from '../judge/panel/panel';
import type { RowRange } from '../judge/run/runner';
import { fingerprint, newNonce, REQUEST_MAP, STATE_VERSION, type BatchState, type PanelSpec } from './state';

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
    nonce: newNonce(),
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

/** A panel member as asked for: a model, and an endpoint when it names its own. */
export interface BatchMemberRequest {
  model: string;
  endpoint?: string;
}

/**
 * The panel a batch judges with (template `model.judges`, or the CLI's --judge), or why it cannot:
 * a provider batch goes to one endpoint, so a member naming another one is refused up front, for
 * the CLI and the editor alike.
 */
export function batchPanelSpec(
  judge: PreparedJudge,
  requests: readonly BatchMemberRequest[],
  baseURL: string,
  quorum: number | undefined,
): { ok: true; panel: PanelSpec } | { ok: false; message: string } {
  const elsewhere = requests.find((r) => r.endpoint !== undefined);
  if (elsewhere) {
    return {
      ok: false,
      message: `judge ${elsewhere.model} names its own endpoint (${elsewhere.endpoint}); a provider batch runs at one endpoint, so every judge of a batch panel is asked there. Run the panel without the Batch API for judges across endpoints`,
    };
  }
  const refused = compositionError({ judge, panel: { members: requests.map((r) => ({ settings: { model: r.model } })) } });
  if (refused) return { ok: false, message: refused };
  if (quorum !== undefined && quorum > requests.length) return { ok: false, message: `a quorum of ${quorum} is more than the ${requests.length} judge(s) of the panel` };
  const labels = memberLabels(requests.map((r) => ({ model: r.model, baseURL })));
  return { ok: true, panel: { members: requests.map((r, i) => ({ label: labels[i]!, model: r.model })), ...(quorum !== undefined ? { quorum } : {}) } };
}
