// Where each member of a template's panel (`model.judges`) is asked, in the editor: its endpoint as
// a URL, a name from the `judgeStudio.endpoints` setting, or the configured endpoint. The configured
// endpoint's headers go only to its own origin; keys are looked up per origin by the caller.
import { checkEndpoint, endpointScope, isCredentialHeader } from '../../../core/judge/transport/endpoint';
import type { JudgeClient } from '../../../core/judge/transport/types';
import { LazyOpenAIClient } from '../../lazyClient';
import { LoggingClient, redact, type RequestLog } from './loggingClient';
import { describeKeySource, originOf, type ApiKeyLookup } from './origin';

export interface PanelMemberPlan {
  model: string;
  baseURL: string;
  /** The configured endpoint's headers when the member is at its origin, else none. */
  headers: Record<string, string>;
}

export type PanelPlan = { ok: true; members: PanelMemberPlan[] } | { ok: false; message: string };

export function planPanel(
  judges: readonly { model: string; endpoint?: string }[],
  c: { baseUrl: string; headers: Record<string, string>; endpoints: Readonly<Record<string, string>> },
): PanelPlan {
  const configured = originOf(c.baseUrl);
  const members: PanelMemberPlan[] = [];
  for (const j of judges) {
    let url: string;
    if (j.endpoint === undefined) {
      if (!configured.ok) return { ok: false, message: `panel judge ${j.model} names no endpoint and judgeStudio.endpoint.baseUrl is not set; give it an \`endpoint\` or set the base URL` };
      url = c.baseUrl;
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(j.endpoint)) {
      url = j.endpoint;
    } else {
      const named = c.endpoints[j.endpoint];
      if (named === undefined) return { ok: false, message: `panel judge ${j.model}: no endpoint named "${j.endpoint}" in the judgeStudio.endpoints setting` };
      url = named;
    }
    const origin = originOf(url);
    if (!origin.ok) return { ok: false, message: `panel judge ${j.model}: ${origin.error}` };
    members.push({ model: j.model, baseURL: url, headers: configured.ok && configured.origin === origin.origin ? c.headers : {} });
  }
  return { ok: true, members };
}

export interface MemberClient {
  label: string;
  client: JudgeClient;
  cacheScope: string;
}

export interface MemberClientDeps {
  /** The key for a base URL: only the one stored for its origin (see origin.ts). */
  keyFor(baseURL: string): Promise<ApiKeyLookup>;
  timeoutMs: number;
  log: RequestLog;
  /** Injectable transport, for tests. */
  fetch?: typeof fetch;
}

/**
 * One client per member: the key stored for that member's origin and no other, the configured
 * headers only at the configured origin (planPanel), every secret masked in the log, and a key
 * never over plain http to another machine.
 */
export async function panelClients(
  plan: readonly PanelMemberPlan[],
  labels: readonly string[],
  deps: MemberClientDeps,
): Promise<{ ok: true; members: MemberClient[] } | { ok: false; message: string }> {
  const members: MemberClient[] = [];
  for (const [i, m] of plan.entries()) {
    const lookup = await deps.keyFor(m.baseURL);
    const sendsCredentials = lookup.key !== undefined || Object.keys(m.headers).some(isCredentialHeader);
    const check = checkEndpoint(m.baseURL, { sendsCredentials, flag: `panel judge ${m.model}` });
    if (!check.ok) return { ok: false, message: check.message.replace(/, or pass --allow-insecure-http.*$/, '') };
    const secrets = [...(lookup.key !== undefined ? [lookup.key] : []), ...Object.values(m.headers)];
    const inner = new LazyOpenAIClient({
      baseURL: m.baseURL,
      ...(lookup.key !== undefined ? { apiKey: lookup.key } : {}),
      headers: m.headers,
      timeoutMs: deps.timeoutMs,
      log: (message) => deps.log.info(redact(message, secrets)),
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
    const origin = originOf(m.baseURL);
    const label = labels[i]!;
    const target = origin.ok ? origin.origin : m.baseURL;
    deps.log.info(`panel judge ${label}: ${target} · ${describeKeySource(lookup.source)}`);
    const client = new LoggingClient(inner, { method: 'POST', target: `${target} chat/completions`, secrets, log: deps.log });
    const scope = endpointScope({ baseURL: m.baseURL, headers: m.headers });
    members.push({ label, client, cacheScope: /#\d+$/.test(label) ? `${scope}|${label}` : scope });
  }
  return { ok: true, members };
}
