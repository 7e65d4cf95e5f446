// Picks the judge a run uses: the OpenAI-compatible endpoint from settings (with the key stored
// for its origin), or a VS Code language model; or says, with a message and a fixing button,
// why no judge can run. Workspace trust is checked first: Restricted Mode never calls a judge.
import * as vscode from 'vscode';
import { endpointScope } from '../../core/judge/transport/endpoint';
import { LazyOpenAIClient } from '../lazyClient';
import type { JudgeClient, StructuredOutputMode } from '../../core/judge/transport/types';
import type { TemplateConfig } from '../../core/template/types';
import type { Studio } from '../studio';
import { LanguageModelClient } from './lmClient';
import { pickLmModel } from './model/lm';
import { LoggingClient, redact } from './model/loggingClient';
import { describeKeySource, OPENAI_ENV, OPENAI_ORIGIN, originOf } from './model/origin';
import { chooseModel, providerPlan, readProviderSettings, SECTION, type ProviderSettings } from './model/settings';
import { notify, type Fix } from './notices';
import { ApiKeys } from './secrets';

export interface ResolvedJudge {
  client: JudgeClient;
  model: string;
  /** e.g. "openai-compatible http://127.0.0.1:8080/v1 · m" or "VS Code LM · copilot-gpt-4o". */
  label: string;
  /** Cache scope: every request-shaping setting of the endpoint, hashed (see core/judge/transport/endpoint.ts). */
  cacheScope: string;
  settings: { concurrency: number; timeoutMs: number; structured: StructuredOutputMode };
}

export type ResolveOutcome =
  | { ok: true; judge: ResolvedJudge }
  | { ok: false; reason: 'untrusted' | 'not-configured' | 'cancelled' | 'error'; message: string };

export interface ResolveOptions {
  template?: TemplateConfig;
  /** Show the reason as a notification with a button that fixes it. */
  interactive: boolean;
  signal?: AbortSignal;
}

export const UNTRUSTED_MESSAGE =
  'This workspace is in Restricted Mode: Judge Studio does not call a judge here. Trust the folder to run judges (previews and validation still work).';
export const NOT_CONFIGURED_MESSAGE =
  'No judge is configured. Set an OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, LM Studio, llama.cpp) or install a language-model provider.';

/** Provider settings as they apply here: in Restricted Mode, workspace values of endpoint settings are ignored. */
export function readSettings(): ProviderSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return readProviderSettings((key) => config.inspect(key), vscode.workspace.isTrusted);
}

type Refusal = Extract<ResolveOutcome, { ok: false }>;

export async function resolveJudge(studio: Studio, opts: ResolveOptions): Promise<ResolveOutcome> {
  const refuse = (reason: Refusal['reason'], message: string, fixes: readonly Fix[] = []): Refusal => {
    if (reason !== 'cancelled') studio.log.info(`no judge: ${message}`);
    if (opts.interactive && reason !== 'cancelled') notify(studio, reason === 'error' ? 'error' : 'warning', message, fixes);
    return { ok: false, reason, message };
  };
  if (!vscode.workspace.isTrusted) return refuse('untrusted', UNTRUSTED_MESSAGE, ['trust']);

  const settings = readSettings();
  for (const problem of settings.problems) studio.log.warn(problem);
  const cancelled = () => refuse('cancelled', 'Cancelled before a judge was chosen.');
  if (opts.signal?.aborted) return cancelled();

  try {
    switch (providerPlan(settings)) {
      case 'openai-compatible':
        return await openAiJudge(studio, settings, opts, refuse);
      case 'missing-base-url':
        return refuse('not-configured', `${SECTION}.provider is "openai-compatible", but ${SECTION}.endpoint.baseUrl is empty. Set the endpoint's base URL.`, ['configure', 'settings']);
      case 'vscode-lm': {
        const lm = await lmJudge(studio, settings, opts);
        if (opts.signal?.aborted) return cancelled();
        return lm ?? refuse('not-configured', `${SECTION}.provider is "vscode-lm", but VS Code offers no language model. Install a language-model provider (such as GitHub Copilot) or configure an endpoint.`, ['configure', 'settings']);
      }
      case 'vscode-lm-if-available': {
        const lm = await lmJudge(studio, settings, opts);
        if (opts.signal?.aborted) return cancelled();
        return lm ?? refuse('not-configured', NOT_CONFIGURED_MESSAGE, ['configure', 'settings']);
      }
    }
  } catch (e) {
    if (opts.signal?.aborted) return cancelled();
    studio.log.error('choosing the judge failed', e);
    return refuse('error', `Judge Studio could not set up the judge: ${e instanceof Error ? e.message : String(e)}`, ['configure', 'log']);
  }
}

async function openAiJudge(
  studio: Studio,
  settings: ProviderSettings,
  opts: ResolveOptions,
  refuse: (reason: Refusal['reason'], message: string, fixes?: readonly Fix[]) => Refusal,
): Promise<ResolveOutcome> {
  const origin = originOf(settings.baseUrl);
  if (!origin.ok) {
    return refuse('error', `${SECTION}.endpoint.baseUrl (${settings.baseUrlScope} settings): ${origin.error}.`, ['configure', 'settings']);
  }
  const model = chooseModel(settings, opts.template?.model.name);
  if (!model) {
    return refuse('not-configured', `No model to ask at ${displayUrl(settings.baseUrl)}: set ${SECTION}.endpoint.model, or model.name in the template.`, ['configure', 'settings']);
  }
  const lookup = await new ApiKeys(studio.context).forBaseUrl(settings.baseUrl);
  if (opts.signal?.aborted) return refuse('cancelled', 'Cancelled before a judge was chosen.');
  if (lookup.key === undefined && origin.origin === OPENAI_ORIGIN) {
    return refuse('not-configured', `No API key for ${OPENAI_ORIGIN}: run "Judge Studio: Set API Key" (or set $${OPENAI_ENV} before starting VS Code).`, ['setKey']);
  }
  const secrets = [...(lookup.key !== undefined ? [lookup.key] : []), ...Object.values(settings.headers)];
  const inner = new LazyOpenAIClient({
    baseURL: settings.baseUrl,
    ...(lookup.key !== undefined ? { apiKey: lookup.key } : {}),
    headers: settings.headers,
    timeoutMs: settings.timeoutMs,
    log: (message) => studio.log.info(redact(message, secrets)),
  });
  const shown = displayUrl(settings.baseUrl);
  const headerNames = Object.keys(settings.headers);
  studio.log.info(
    `judge: openai-compatible ${shown} (${settings.baseUrlScope} settings) · model ${model} · ${describeKeySource(lookup.source)} · ` +
      `headers: ${headerNames.length ? headerNames.join(', ') : 'none'} · structured output ${settings.structured} · ` +
      `concurrency ${settings.concurrency} · timeout ${settings.timeoutMs} ms`,
  );
  const client = new LoggingClient(inner, { method: 'POST', target: `${origin.origin} chat/completions`, secrets, log: logSink(studio) });
  return {
    ok: true,
    judge: {
      client,
      model,
      label: `openai-compatible ${shown} · ${model}`,
      cacheScope: endpointScope({ baseURL: settings.baseUrl, headers: settings.headers }),
      settings: { concurrency: settings.concurrency, timeoutMs: settings.timeoutMs, structured: settings.structured },
    },
  };
}

async function lmJudge(studio: Studio, settings: ProviderSettings, opts: ResolveOptions): Promise<ResolveOutcome | undefined> {
  let models: vscode.LanguageModelChat[];
  try {
    models = await vscode.lm.selectChatModels();
  } catch (e) {
    studio.log.warn(`asking VS Code for language models failed: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
  const wanted = [settings.model, opts.template?.model.name ?? ''].filter((n) => n.trim() !== '');
  const model = pickLmModel(models, wanted);
  if (!model) return undefined;
  if (wanted.length && ![model.id, model.family, model.name].some((n) => wanted.some((w) => w.trim().toLowerCase() === n.toLowerCase()))) {
    studio.log.info(`no VS Code language model is named ${wanted.join(' or ')}; using ${model.id}`);
  }
  studio.log.info(`judge: VS Code LM ${model.vendor}/${model.id} (${model.name}) · concurrency ${settings.concurrency} · timeout ${settings.timeoutMs} ms`);
  const client = new LoggingClient(new LanguageModelClient(model, { timeoutMs: settings.timeoutMs }), {
    method: 'lm.sendRequest',
    target: `VS Code LM ${model.vendor}`,
    secrets: [],
    log: logSink(studio),
  });
  return {
    ok: true,
    judge: {
      client,
      model: model.id,
      label: `VS Code LM · ${model.id}`,
      cacheScope: `vscode-lm:${model.vendor}/${model.id}`,
      // The Language Model API has no structured output; the engine extracts JSON from the text.
      settings: { concurrency: settings.concurrency, timeoutMs: settings.timeoutMs, structured: 'none' },
    },
  };
}

/** The base URL without query or fragment (a query may carry a token). */
export function displayUrl(baseUrl: string): string {
  try {
    const u = new URL(baseUrl);
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseUrl;
  }
}

function logSink(studio: Studio) {
  return { info: (m: string) => studio.log.info(m), warn: (m: string) => studio.log.warn(m) };
}
