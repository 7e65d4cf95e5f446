// Provider settings resolved from VS Code's per-scope values. Endpoint settings say where prompts
// (and keys) go, so in an untrusted workspace only user and default values count, whatever the
// workspace's .vscode/settings.json says. No `vscode` here: the caller passes `inspect`.
import type { StructuredOutputMode } from '../../../core/judge/transport/types';

export const SECTION = 'judgeStudio';

export type ProviderKind = 'auto' | 'openai-compatible' | 'vscode-lm';

/** Settings whose workspace values are ignored in Restricted Mode (also declared in package.json). */
export const RESTRICTED_KEYS = ['provider', 'endpoint.baseUrl', 'endpoint.model', 'endpoint.structuredOutput', 'endpoint.headers', 'endpoints'] as const;

/** The shape of `WorkspaceConfiguration.inspect()` that matters here. */
export interface Inspected {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** `inspect(key)` for a key relative to the `judgeStudio` section. */
export type Inspect = (key: string) => Inspected | undefined;

export type Scope = 'default' | 'user' | 'workspace' | 'folder';

export interface ProviderSettings {
  provider: ProviderKind;
  /** Trimmed; '' when no endpoint is configured. */
  baseUrl: string;
  baseUrlScope: Scope;
  /** '' when unset (then the template's model.name applies). */
  model: string;
  structured: StructuredOutputMode;
  headers: Record<string, string>;
  concurrency: number;
  timeoutMs: number;
  /** Settings that had unusable values, each with what was used instead. */
  problems: string[];
  /** Restricted settings whose workspace values were ignored because the workspace is untrusted. */
  ignoredWorkspaceValues: string[];
}

export const DEFAULTS = { concurrency: 8, timeoutMs: 60_000, maxConcurrency: 64, minTimeoutMs: 1_000 } as const;

const PROVIDERS: readonly ProviderKind[] = ['auto', 'openai-compatible', 'vscode-lm'];
const MODES: readonly StructuredOutputMode[] = ['json_schema', 'json_object', 'none'];

/** The value VS Code would apply, optionally skipping workspace scopes; with the scope it came from. */
export function effective(inspected: Inspected | undefined, includeWorkspace: boolean): { value: unknown; scope: Scope } {
  if (includeWorkspace && inspected?.workspaceFolderValue !== undefined) return { value: inspected.workspaceFolderValue, scope: 'folder' };
  if (includeWorkspace && inspected?.workspaceValue !== undefined) return { value: inspected.workspaceValue, scope: 'workspace' };
  if (inspected?.globalValue !== undefined) return { value: inspected.globalValue, scope: 'user' };
  return { value: inspected?.defaultValue, scope: 'default' };
}

export function readProviderSettings(inspect: Inspect, trusted: boolean): ProviderSettings {
  const problems: string[] = [];
  const ignoredWorkspaceValues: string[] = [];
  const restricted = (key: (typeof RESTRICTED_KEYS)[number]) => {
    const inspected = inspect(key);
    if (!trusted && (inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined)) {
      ignoredWorkspaceValues.push(`${SECTION}.${key}`);
    }
    return effective(inspected, trusted);
  };
  const open = (key: string) => effective(inspect(key), true).value;

  const provider = oneOf(restricted('provider').value, PROVIDERS, 'auto', `${SECTION}.provider`, problems);
  const base = restricted('endpoint.baseUrl');
  const baseUrl = stringOr(base.value, '', `${SECTION}.endpoint.baseUrl`, problems).trim();
  const model = stringOr(restricted('endpoint.model').value, '', `${SECTION}.endpoint.model`, problems).trim();
  const structured = oneOf(restricted('endpoint.structuredOutput').value, MODES, 'json_schema', `${SECTION}.endpoint.structuredOutput`, problems);
  const headerSetting = restricted('endpoint.headers');
  const headers = boundHeaders(headerMap(headerSetting.value, problems), headerSetting.scope, baseUrl, inspect('endpoint.baseUrl'), problems);
  const concurrency = integerIn(open('run.concurrency'), 1, DEFAULTS.maxConcurrency, DEFAULTS.concurrency, `${SECTION}.run.concurrency`, problems);
  const timeoutMs = integerIn(open('run.timeoutMs'), DEFAULTS.minTimeoutMs, Number.MAX_SAFE_INTEGER, DEFAULTS.timeoutMs, `${SECTION}.run.timeoutMs`, problems);
  return { provider, baseUrl, baseUrlScope: baseUrl === '' ? 'default' : base.scope, model, structured, headers, concurrency, timeoutMs, problems, ignoredWorkspaceValues };
}

/** The model to ask for: the endpoint setting, else the template's `model.name`. */
export function chooseModel(settings: Pick<ProviderSettings, 'model'>, templateModel: string | undefined): string | undefined {
  if (settings.model !== '') return settings.model;
  const fromTemplate = templateModel?.trim();
  return fromTemplate ? fromTemplate : undefined;
}

/** Which client `auto` and the explicit choices lead to, before asking VS Code about its models. */
export function providerPlan(settings: Pick<ProviderSettings, 'provider' | 'baseUrl'>): 'openai-compatible' | 'vscode-lm' | 'vscode-lm-if-available' | 'missing-base-url' {
  switch (settings.provider) {
    case 'openai-compatible':
      return settings.baseUrl === '' ? 'missing-base-url' : 'openai-compatible';
    case 'vscode-lm':
      return 'vscode-lm';
    case 'auto':
      return settings.baseUrl === '' ? 'vscode-lm-if-available' : 'openai-compatible';
  }
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T, name: string, problems: string[]): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  problems.push(`${name} is ${JSON.stringify(value)}, not one of ${allowed.join(', ')}; using ${fallback}`);
  return fallback;
}

function stringOr(value: unknown, fallback: string, name: string, problems: string[]): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string') return value;
  problems.push(`${name} must be a string, not ${JSON.stringify(value)}; ignoring it`);
  return fallback;
}

function integerIn(value: unknown, min: number, max: number, fallback: number, name: string, problems: string[]): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
  problems.push(`${name} must be an integer ${range}, not ${JSON.stringify(value)}; using ${fallback}`);
  return fallback;
}

function valueAt(inspected: Inspected | undefined, scope: Scope): unknown {
  return scope === 'folder'
    ? inspected?.workspaceFolderValue
    : scope === 'workspace'
      ? inspected?.workspaceValue
      : scope === 'user'
        ? inspected?.globalValue
        : inspected?.defaultValue;
}

function originOrNull(url: unknown): string | null {
  if (typeof url !== 'string' || url.trim() === '') return null;
  try {
    return new URL(url.trim()).origin;
  } catch {
    return null;
  }
}

/**
 * Headers (which often carry keys such as `api-key`) go only to the origin they were configured
 * for: the base URL set in the same settings scope as the headers. A base URL that another scope
 * (say, a workspace's .vscode/settings.json) points elsewhere does not receive them.
 */
function boundHeaders(headers: Record<string, string>, scope: Scope, baseUrl: string, inspectedBase: Inspected | undefined, problems: string[]): Record<string, string> {
  if (Object.keys(headers).length === 0) return headers;
  const boundTo = originOrNull(valueAt(inspectedBase, scope));
  const target = originOrNull(baseUrl);
  if (boundTo !== null && boundTo === target) return headers;
  const where = scope === 'folder' ? 'folder' : scope;
  problems.push(
    boundTo === null
      ? `${SECTION}.endpoint.headers (${where} settings) are not sent: no ${SECTION}.endpoint.baseUrl is set in the same ${where} settings to say which origin they belong to. Set the base URL next to the headers.`
      : `${SECTION}.endpoint.headers (${where} settings) belong to ${boundTo} and are not sent to ${target ?? 'the configured endpoint'}. Set the headers in the same settings as the base URL you use.`,
  );
  return {};
}

// HTTP token characters (RFC 9110); anything else would make fetch throw on every request.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function headerMap(value: unknown, problems: string[]): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${SECTION}.endpoint.headers must be an object of header names to string values; ignoring it`);
    return {};
  }
  const headers: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (!HEADER_NAME.test(name)) problems.push(`${SECTION}.endpoint.headers: "${name}" is not a valid header name; skipping it`);
    else if (typeof v !== 'string') problems.push(`${SECTION}.endpoint.headers: the value of "${name}" must be a string; skipping it`);
    else headers[name] = v;
  }
  return headers;
}
