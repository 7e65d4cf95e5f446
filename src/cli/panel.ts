// `run --judge MODEL[@BASE_URL]` and the template's `model.judges`: the panel members, each with the
// client of its endpoint (one client per endpoint, built under the key policy of cli/endpoint.ts:
// an endpoint the template names gets no key unless the command line gives it one) and its own
// cache scope.
import { endpointScope, redactUrl, type EndpointIdentity } from '../core/judge/transport/endpoint';
import { parseEndpointKeys, type MemberEndpoint, type MemberKeys } from './endpoint';
import type { JudgeSettings } from '../core/judge/engine/pass';
import { memberLabels, type Panel } from '../core/judge/panel/panel';
import type { JudgeClient } from '../core/judge/transport/types';
import type { TemplateConfig } from '../core/template/types';
import { UsageError } from './io';

export interface MemberRequest {
  model: string;
  /** A base URL or an endpoint name; undefined: the run's base URL. */
  endpoint?: string;
  /** Named by the template's `model.judges`, not by --judge. */
  fromTemplate?: boolean;
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

/** The keys `--endpoint-key` gives and `--trust-template-endpoints`; refused without a panel, where they would mean nothing. */
export function memberKeys(
  v: { 'endpoint-key'?: string[] | undefined; 'trust-template-endpoints'?: boolean | undefined },
  named: ReadonlyMap<string, string>,
  env: Readonly<Record<string, string | undefined>>,
  panel: boolean,
): MemberKeys {
  if (!panel && (v['endpoint-key']?.length || v['trust-template-endpoints'])) {
    throw new UsageError(`${v['endpoint-key']?.length ? '--endpoint-key' : '--trust-template-endpoints'} applies to a panel of judges (--judge or model.judges); a single judge uses --base-url and --api-key-env`);
  }
  return { byName: parseEndpointKeys(v['endpoint-key'] ?? [], named, env), named, trustTemplate: v['trust-template-endpoints'] === true };
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
  return config.model.judges?.map((j) => ({ model: j.model, fromTemplate: true, ...(j.endpoint !== undefined ? { endpoint: j.endpoint } : {}) }));
}

/** Where a member is asked: its endpoint (a URL or a name), else the run's base URL. */
export function memberEndpoint(req: MemberRequest, runBaseURL: string, named: ReadonlyMap<string, string>): MemberEndpoint {
  const fromTemplate = req.fromTemplate === true;
  if (req.endpoint === undefined) return { baseURL: runBaseURL, fromTemplate };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(req.endpoint)) return { baseURL: req.endpoint, fromTemplate };
  const url = named.get(req.endpoint);
  if (url === undefined) {
    const known = [...named.keys()];
    throw new UsageError(
      `judge ${req.model}: no endpoint named "${req.endpoint}"; name it with --endpoint ${req.endpoint}=URL` + (known.length ? ` (named: ${known.join(', ')})` : ''),
    );
  }
  return { baseURL: url, name: req.endpoint, fromTemplate };
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
    quorum: number | undefined;
    /** The member's client and cache identity under the key policy (see cli/endpoint.ts). */
    clientFor: (endpoint: MemberEndpoint) => { client: JudgeClient; identity: EndpointIdentity };
  },
): PanelBuild {
  const specs = requests.map((r) => ({ model: r.model, endpoint: memberEndpoint(r, c.runBaseURL, c.named) }));
  if (c.quorum !== undefined && c.quorum > specs.length) throw new UsageError(`--min-judges ${c.quorum} is more than the ${specs.length} judge(s) of the panel`);
  const labels = memberLabels(specs.map((s) => ({ model: s.model, baseURL: s.endpoint.baseURL })));
  // One client per endpoint and key decision: a URL the template names and the same URL named on the
  // command line with its own key are two clients.
  const clients = new Map<string, { client: JudgeClient; identity: EndpointIdentity }>();
  const members = specs.map((s, i) => {
    const id = `${s.endpoint.baseURL}|${s.endpoint.name ?? ''}|${s.endpoint.fromTemplate}`;
    let built = clients.get(id);
    if (!built) {
      built = c.clientFor(s.endpoint);
      clients.set(id, built);
    }
    const label = labels[i]!;
    const scope = endpointScope(built.identity);
    // The same model at the same endpoint twice is two judges: they never share cached answers.
    const repeated = /#\d+$/.test(label);
    return { label, client: built.client, settings: { ...c.settings, model: s.model }, cacheScope: repeated ? `${scope}|${label}` : scope };
  });
  return {
    panel: { members, ...(c.quorum !== undefined ? { quorum: c.quorum } : {}) },
    described: specs.map((s, i) => `${labels[i]} at ${redactUrl(s.endpoint.baseURL)}`),
  };
}
