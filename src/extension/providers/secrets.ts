// API keys in VS Code's SecretStorage (the OS keychain), one per endpoint origin. SecretStorage
// cannot list its entries, so the origins that have a key (never the keys) are kept in
// globalState for "Clear API Key" to offer.
import type * as vscode from 'vscode';
import { apiKeyFor, originOf, secretName, type ApiKeyLookup } from './model/origin';

const INDEX = 'judgeStudio.apiKeyOrigins';

export class ApiKeys {
  constructor(private readonly context: vscode.ExtensionContext) {}

  /** The key for requests to `baseUrl`: only the one stored for its origin (see model/origin.ts). */
  forBaseUrl(baseUrl: string): Promise<ApiKeyLookup> {
    return apiKeyFor(baseUrl, this.context.secrets, process.env);
  }

  async has(origin: string): Promise<boolean> {
    return (await this.context.secrets.get(secretName(origin))) !== undefined;
  }

  /** Stores `key` for the origin of `url` and returns that origin. */
  async store(url: string, key: string): Promise<string> {
    const origin = checkedOrigin(url);
    if (key.trim() === '') throw new Error('the API key is empty');
    await this.context.secrets.store(secretName(origin), key.trim());
    await this.context.globalState.update(INDEX, [...new Set([...this.origins(), origin])].sort());
    return origin;
  }

  /** Deletes the key for the origin of `url`; true when there was one. */
  async clear(url: string): Promise<boolean> {
    const origin = checkedOrigin(url);
    const had = await this.has(origin);
    await this.context.secrets.delete(secretName(origin));
    await this.context.globalState.update(INDEX, this.origins().filter((o) => o !== origin));
    return had;
  }

  /** Origins a key was stored for through this extension. */
  origins(): string[] {
    const value = this.context.globalState.get<unknown>(INDEX);
    return Array.isArray(value) ? value.filter((o): o is string => typeof o === 'string') : [];
  }
}

export function checkedOrigin(url: string): string {
  const o = originOf(url);
  if (!o.ok) throw new Error(o.error);
  return o.origin;
}
