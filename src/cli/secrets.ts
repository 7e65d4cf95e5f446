// The secret values the CLI masks in everything it prints. Its own module, away from endpoint.ts:
// the dispatcher needs it before any command runs, and endpoint.ts loads the openai client.
import { isCredentialHeader } from '../core/judge/transport/endpoint';
import { secretsFromEnv } from '../core/security/scrub';
import type { CliIO } from './io';

/**
 * The secret values a CLI process may hold: every variable named by --api-key-env or
 * --endpoint-key, OPENAI_API_KEY, any variable whose name says it is a secret, and --header values
 * of credential headers. The CLI's stdout and stderr mask them as a last guard.
 */
export function cliSecrets(argv: readonly string[], env: CliIO['env']): string[] {
  const names = ['OPENAI_API_KEY'];
  const headers: string[] = [];
  argv.forEach((a, i) => {
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = inline ?? argv[i + 1] ?? '';
    if (flag === '--api-key-env') names.push(value);
    if (flag === '--endpoint-key') names.push(value.slice(value.indexOf('=') + 1));
    if (flag === '--header' && isCredentialHeader(value.slice(0, Math.max(0, value.indexOf(':'))))) headers.push(value.slice(value.indexOf(':') + 1).trim());
  });
  return [...secretsFromEnv(env, names), ...headers];
}
