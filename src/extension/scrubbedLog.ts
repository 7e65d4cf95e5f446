// The editor's output channel as a last guard (docs/security.md): every message and error written
// to it is masked of anything shaped like a credential and of the secret-looking environment
// variables, whatever wrote it. Keys from Secret Storage are masked where they are used (the
// transport scrubs every string a server sends of the key it sent), before anything logs them.
// A plain wrapper, not a Proxy: the channel VS Code hands out may be frozen.
import type * as vscode from 'vscode';
import { scrubSecrets, secretsFromEnv } from '../core/security/scrub';

/** `channel`, with the text of every write scrubbed first. */
export function scrubbedLog(channel: vscode.LogOutputChannel, env: Readonly<Record<string, string | undefined>> = process.env): vscode.LogOutputChannel {
  const secrets = secretsFromEnv(env);
  const text = (value: string) => scrubSecrets(value, secrets);
  const clean = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value);
    if (value instanceof Error) {
      const copy = new Error(text(value.message));
      copy.name = value.name;
      copy.stack = text(value.stack ?? '');
      return copy;
    }
    return value;
  };
  const args = (rest: unknown[]) => rest.map(clean);
  return {
    get name() {
      return channel.name;
    },
    get logLevel() {
      return channel.logLevel;
    },
    onDidChangeLogLevel: channel.onDidChangeLogLevel,
    append: (value) => channel.append(text(value)),
    appendLine: (value) => channel.appendLine(text(value)),
    replace: (value) => channel.replace(text(value)),
    clear: () => channel.clear(),
    show: ((a?: never, b?: boolean) => channel.show(a, b)) as vscode.LogOutputChannel['show'],
    hide: () => channel.hide(),
    dispose: () => channel.dispose(),
    trace: (message, ...rest) => channel.trace(text(message), ...args(rest)),
    debug: (message, ...rest) => channel.debug(text(message), ...args(rest)),
    info: (message, ...rest) => channel.info(text(message), ...args(rest)),
    warn: (message, ...rest) => channel.warn(text(message), ...args(rest)),
    error: (error, ...rest) => channel.error(clean(error) as string | Error, ...args(rest)),
  };
}
