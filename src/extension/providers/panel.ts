// The clients of a template's panel of judges in the editor: one per member endpoint, each with
// the key stored for that endpoint's origin only (never another origin's), logged like the single
// judge's, and refused when a key would travel over plain http to another machine.
import * as vscode from 'vscode';
import type { JudgeSettings } from '../../core/judge/engine/pass';
import { memberLabels, type Panel } from '../../core/judge/panel/panel';
import type { TemplateConfig } from '../../core/template/types';
import type { Studio } from '../studio';
import { panelClients, planPanel } from './model/panel';
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
  const built = await panelClients(plan.members, labels, {
    keyFor: (url) => keys.forBaseUrl(url),
    timeoutMs: s.timeoutMs,
    log: { info: (x) => studio.log.info(x), warn: (x) => studio.log.warn(x) },
  });
  if (!built.ok) return built;
  const members = built.members.map((m, i) => ({ label: m.label, client: m.client, settings: { ...settings, model: plan.members[i]!.model }, cacheScope: m.cacheScope }));
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
