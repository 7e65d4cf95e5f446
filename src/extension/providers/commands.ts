// Set API Key, Clear API Key and Test Judge Connection. Each accepts an argument object so tests
// and other extensions can run it without UI; from the palette it asks with quick inputs.
// Keys are never echoed, logged or returned.
import * as vscode from 'vscode';
import { z } from 'zod';
import type { ChatMessage } from '../../core/judge/transport/types';
import { isJudgeDocument, type Studio } from '../studio';
import { isLoopback, OPENAI_ORIGIN, originOf } from './model/origin';
import { notify } from './notices';
import { readSettings, resolveJudge, type ResolveOutcome } from './resolve';
import { ApiKeys, checkedOrigin } from './secrets';

const setKeyArgs = z.object({ origin: z.string().optional(), key: z.string().optional() }).strict();
const clearKeyArgs = z.object({ origin: z.string().optional() }).strict();
const testArgs = z.object({ interactive: z.boolean().optional() }).strict();

/** Parses a command's argument object; no argument (the palette) is `{}`. */
export function commandArgs<T>(schema: z.ZodType<T>, arg: unknown, command: string): T {
  if (arg === undefined || arg === null) return schema.parse({});
  const parsed = schema.safeParse(arg);
  if (!parsed.success) throw new Error(`${command}: unexpected arguments (${parsed.error.issues.map((i) => `${i.path.join('.') || 'argument'}: ${i.message}`).join('; ')})`);
  return parsed.data;
}

/** The origin "Set API Key" proposes: the configured endpoint's, else OpenAI's. */
function proposedOrigin(): string {
  const o = originOf(readSettings().baseUrl);
  return o.ok ? o.origin : OPENAI_ORIGIN;
}

function validateOrigin(value: string): vscode.InputBoxValidationMessage | string | undefined {
  const o = originOf(value);
  if (!o.ok) return o.error;
  if (o.origin.startsWith('http:') && !isLoopback(o.origin)) {
    return { message: `${o.origin} is plain http: the key would cross the network unencrypted.`, severity: vscode.InputBoxValidationSeverity.Warning };
  }
  return undefined;
}

/** Returns the origin the key was stored for, or undefined when the user cancelled. */
export async function setApiKey(studio: Studio, arg: unknown): Promise<string | undefined> {
  const args = commandArgs(setKeyArgs, arg, 'judgeStudio.setApiKey');
  const keys = new ApiKeys(studio.context);
  if (args.origin !== undefined && args.key !== undefined) {
    const origin = await keys.store(args.origin, args.key);
    studio.log.info(`API key stored for ${origin}`);
    return origin;
  }
  const url =
    args.origin ??
    (await vscode.window.showInputBox({
      title: 'Judge Studio: Set API Key (1/2)',
      prompt: 'The endpoint the key belongs to. Judge Studio sends the key only to this origin (scheme, host and port).',
      value: proposedOrigin(),
      ignoreFocusOut: true,
      validateInput: validateOrigin,
    }));
  if (url === undefined) return undefined;
  const origin = checkedOrigin(url);
  const key = await vscode.window.showInputBox({
    title: 'Judge Studio: Set API Key (2/2)',
    prompt: `The API key for ${origin}. It is kept in VS Code's secret storage.`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? 'Enter the key, or press Escape to cancel.' : undefined),
  });
  if (key === undefined) return undefined;
  await keys.store(origin, key);
  studio.log.info(`API key stored for ${origin}`);
  void vscode.window.showInformationMessage(`API key stored for ${origin}; it is sent only there.`);
  return origin;
}

/** Returns true when a key was deleted. */
export async function clearApiKey(studio: Studio, arg: unknown): Promise<boolean> {
  const args = commandArgs(clearKeyArgs, arg, 'judgeStudio.clearApiKey');
  const keys = new ApiKeys(studio.context);
  let url = args.origin;
  if (url === undefined) {
    const origins = keys.origins();
    if (origins.length === 0) {
      void vscode.window.showInformationMessage('Judge Studio: no API keys are stored.');
      return false;
    }
    url = await vscode.window.showQuickPick(origins, { title: 'Judge Studio: Clear API Key', placeHolder: 'The endpoint whose key to delete' });
    if (url === undefined) return false;
  }
  const had = await keys.clear(url);
  const origin = checkedOrigin(url);
  studio.log.info(had ? `API key deleted for ${origin}` : `no API key was stored for ${origin}`);
  if (args.origin === undefined) void vscode.window.showInformationMessage(`Judge Studio: ${had ? 'deleted the API key' : 'no API key was stored'} for ${origin}.`);
  return had;
}

export type TestOutcome = { ok: true; label: string; model: string; ms: number; reply: string } | Extract<ResolveOutcome, { ok: false }>;

const PING: ChatMessage[] = [
  { role: 'system', content: 'You check that a judge endpoint works.' },
  { role: 'user', content: 'Reply with exactly {"ok": true} and nothing else.' },
];

/** Sends one tiny request through the judge a run would use; gated like a run (trust, configuration). */
export async function testConnection(studio: Studio, arg: unknown): Promise<TestOutcome> {
  const interactive = commandArgs(testArgs, arg, 'judgeStudio.testConnection').interactive ?? true;
  const doc = vscode.window.activeTextEditor?.document;
  const template = doc && isJudgeDocument(doc) ? studio.template(doc).config ?? undefined : undefined;
  const resolved = await resolveJudge(studio, { interactive, ...(template ? { template } : {}) });
  if (!resolved.ok) return resolved;
  const { judge } = resolved;
  const attempt = async (signal?: AbortSignal): Promise<TestOutcome> => {
    const started = Date.now();
    try {
      const response = await judge.client.complete({ messages: PING, model: judge.model, ...(signal ? { signal } : {}) });
      return { ok: true, label: judge.label, model: response.model, ms: Date.now() - started, reply: response.text.trim().slice(0, 200) };
    } catch (e) {
      const message = `${judge.label} failed: ${e instanceof Error ? e.message : String(e)}`;
      return { ok: false, reason: signal?.aborted ? 'cancelled' : 'error', message };
    }
  };
  if (!interactive) return attempt();
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Judge Studio: asking ${judge.label}…`, cancellable: true },
    (_progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return attempt(abort.signal);
    },
  );
  if (outcome.ok) {
    const said = outcome.reply.replace(/\s+/g, ' ');
    void vscode.window.showInformationMessage(`The judge answered in ${outcome.ms} ms: ${said.length > 80 ? `${said.slice(0, 79)}…` : said} (${outcome.label}).`);
  } else if (outcome.reason !== 'cancelled') {
    const viaLm = judge.client.id.startsWith('vscode-lm:');
    notify(studio, 'error', outcome.message, viaLm ? ['log'] : ['configure', 'setKey', 'log']);
  }
  return outcome;
}
