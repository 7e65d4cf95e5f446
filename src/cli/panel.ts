// `run --judge MODEL[@BASE_URL]` and the template's `model.judges`: the panel members, each with the
// client of its endpoint (one client per base URL, built by run.ts under the usual key rules) and
// its own cache scope.
import { endpointScope, redactUrl, type EndpointIdentity } from '../core/judge/transport/endpoint';
import type { JudgeSettings } from '../core/judge/engine/pass';
import { memberLabels, type Panel } from '../core/judge/panel/panel';
import type { JudgeClient } from '../core/judge/transport/types';
import type { TemplateConfig } from '../core/template/types';
import { UsageError } from './io';

export interface MemberRequest {
  model: string;
  /** A base URL or an endpoint name; undefined: the run's base URL. */
  endpoint?: string;
}

/** `MODEL@URL` (the first `@` before http(s)://), `MODEL@NAME` for a named endpoint, else `MODEL`. */
export function parseJudgeFlag(text: string, names: ReadonlySet<string>): MemberRequest {
  const t = text.trim();
  const i = t.search(/@(?=https?:\/\/)/i);
  if (i > 0) return { model: t.slice(0, i), endpoint: t.slice(i + 1) };
  const j = t.lastIndexOf('@');
  if (j > 0 && names.has(t.slice(j + 1))) return { model: t.slice(0, j), endpoint: t.slice(j + 1) };
  if (t === '' || i === 0 || j === 0) throw new UsageError(`--judge takes MODEL or MODEL@BASE_URL, got "${text}"`);
  return { model: t };
}

/** `--endpoint NAME=URL` values as a map. */
export function parseEndpoints(values: readonly string[]): Map<string, string> {
  const named = new Map<string, string>();
  for (const e of values) {
    const i = e.indexOf('=');
    const name = e.slice(0, i).trim();
    if (i <= 0 || !/^[A-Za-z][\w.-]*$/.test(name) || e.slice(i + 1).trim() === '') throw new UsageError(`--endpoint takes NAME=URL, got "${e}"`);
    named.set(name, e.slice(i + 1).trim());
  }
  return named;
}

/** The requested panel: --judge flags win over the template's `model.judges`; undefined: one judge. */
export function panelRequest(flags: readonly string[] | undefined, config: TemplateConfig, named: ReadonlyMap<string, string>): MemberRequest[] | undefined {
  if (flags && flags.length > 0) return flags.map((f) => parseJudgeFlag(f, new Set(named.keys())));
  return config.model.judges?.map((j) => ({ model: j.model, ...(j.endpoint !== undefined ? { endpoint: j.endpoint } : {}) }));
}

/** The base URL of a member: its endpoint (a URL or a name), else the run's. */
export function memberBaseURL(req: MemberRequest, runBaseURL: string, named: ReadonlyMap<string, string>): string {
  if (req.endpoint === undefined) return runBaseURL;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(req.endpoint)) return req.endpoint;
  const url = named.get(req.endpoint);
  if (url === undefined) {
    const known = [...named.keys()];
    throw new UsageError(
      `judge ${req.model}: no endpoint named "${req.endpoint}"; name it with --endpoint ${req.endpoint}=URL` + (known.length ? ` (named: ${known.join(', ')})` : ''),
    );
  }
  return url;
}

export interface PanelBuild {
  panel: Panel;
  /** `label at URL` per member, for the start line. */
  described: string[];
}

export function buildPanel(
  requests: readonly MemberRequest[],
  c: {
    runBaseURL: string;
    named: ReadonlyMap<string, string>;
    settings: JudgeSettings;
    identity: Omit<EndpointIdentity, 'baseURL'>;
    quorum: number | undefined;
    clientFor: (baseURL: string) => JudgeClient;
  },
): PanelBuild {
  const specs = requests.map((r) => ({ model: r.model, baseURL: memberBaseURL(r, c.runBaseURL, c.named) }));
  if (c.quorum !== undefined && c.quorum > specs.length) throw new UsageError(`--min-judges ${c.quorum} is more than the ${specs.length} judge(s) of the panel`);
  const labels = memberLabels(specs);
  const clients = new Map<string, JudgeClient>();
  const members = specs.map((s, i) => {
    let client = clients.get(s.baseURL);
    if (!client) {
      client = c.clientFor(s.baseURL);
      clients.set(s.baseURL, client);
    }
    const label = labels[i]!;
    const scope = endpointScope({ ...c.identity, baseURL: s.baseURL });
    // The same model at the same endpoint twice is two judges: they never share cached answers.
    const repeated = /#\d+$/.test(label);
    return { label, client, settings: { ...c.settings, model: s.model }, cacheScope: repeated ? `${scope}|${label}` : scope };
  });
  return {
    panel: { members, ...(c.quorum !== undefined ? { quorum: c.quorum } : {}) },
    described: specs.map((s, i) => `${labels[i]} at ${redactUrl(s.baseURL)}`),
  };
}
