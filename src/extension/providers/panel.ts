// The clients of a template's panel of judges in the editor: one per member endpoint, each with
// the key stored for that endpoint's origin only (never another origin's), logged like the single
// judge's, and refused when a key would travel over plain http to another machine.
import * as vscode from 'vscode';
import { checkEndpoint, endpointScope } from '../../core/judge/transport/endpoint';
import type { JudgeSettings } from '../../core/judge/engine/pass';
import { LazyOpenAIClient } from '../lazyClient';
import { memberLabels, type Panel } from '../../core/judge/panel/panel';
import type { TemplateConfig } from '../../core/template/types';
import type { Studio } from '../studio';
import { LoggingClient, redact } from './model/loggingClient';
import { describeKeySource, originOf } from './model/origin';
import { planPanel } from './model/panel';
import { SECTION } from './model/settings';
import { readSettings, type ResolveOutcome } from './resolve';
import { ApiKeys } from './secrets';

export type PanelOutcome = { ok: true; panel: Panel; labels: string[]; concurrency: number } | { ok: false; message: string };

export async function resolvePanel(studio: Studio, config: TemplateConfig, settings: Omit<JudgeSettings, 'model'>): Promise<PanelOutcome> {
  const judges = config.model.judges ?? [];
  if (!vscode.workspace.isTrusted) return { ok: false, message: 'This workspace is in Restricted Mode: Judge Studio does not call judges here.' };
  const s = readSettings();
  const endpoints = vscode.workspace.getConfiguration(SECTION).get<unknown>('endpoints');
  const named = endpoints && typeof endpoints === 'object' ? Object.fromEntries(Object.entries(endpoints).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
  const plan = planPanel(judges, { baseUrl: s.baseUrl, headers: s.headers, endpoints: named });
  if (!plan.ok) return plan;
  const labels = memberLabels(plan.members);
  const keys = new ApiKeys(studio.context);
  const members = [];
  for (const [i, m] of plan.members.entries()) {
    const lookup = await keys.forBaseUrl(m.baseURL);
    const check = checkEndpoint(m.baseURL, { sendsCredentials: lookup.key !== undefined, flag: `panel judge ${m.model}` });
    if (!check.ok) return { ok: false, message: check.message.replace(/, or pass --allow-insecure-http.*$/, '') };
    const secrets = [...(lookup.key !== undefined ? [lookup.key] : []), ...Object.values(m.headers)];
    const inner = new LazyOpenAIClient({
      baseURL: m.baseURL,
      ...(lookup.key !== undefined ? { apiKey: lookup.key } : {}),
      headers: m.headers,
      timeoutMs: s.timeoutMs,
      log: (message) => studio.log.info(redact(message, secrets)),
    });
    const origin = originOf(m.baseURL);
    const label = labels[i]!;
    studio.log.info(`panel judge ${label}: ${origin.ok ? origin.origin : m.baseURL} · ${describeKeySource(lookup.source)}`);
    const client = new LoggingClient(inner, {
      method: 'POST',
      target: `${origin.ok ? origin.origin : m.baseURL} chat/completions`,
      secrets,
      log: { info: (x) => studio.log.info(x), warn: (x) => studio.log.warn(x) },
    });
    const scope = endpointScope({ baseURL: m.baseURL, headers: m.headers });
    members.push({ label, client, settings: { ...settings, model: m.model }, cacheScope: /#\d+$/.test(label) ? `${scope}|${label}` : scope });
  }
  return { ok: true, panel: { members, ...(config.model.min_judges !== undefined ? { quorum: config.model.min_judges } : {}) }, labels, concurrency: s.concurrency };
}

/** A panel as a front end's one "judge": the members' names as its model (the pipeline runs the panel). */
export function panelAsJudge(panel: Extract<PanelOutcome, { ok: true }>, structured: 'json_schema' | 'json_object' | 'none'): ResolveOutcome {
  return {
    ok: true,
    judge: {
      client: panel.panel.members[0]!.client,
      model: panel.labels.join(', '),
      label: `panel · ${panel.labels.join(', ')}`,
      cacheScope: panel.panel.members[0]!.cacheScope,
      settings: { concurrency: panel.concurrency, timeoutMs: 0, structured },
    },
  };
}
