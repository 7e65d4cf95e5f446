// "Configure Endpoint": pick a kind of server (or VS Code's language models), confirm the base
// URL, pick or type the model, and write them to USER settings (a workspace cannot be trusted
// with where prompts and keys go, so this command never writes workspace settings).
import * as vscode from 'vscode';
import { z } from 'zod';
import type { Studio } from '../studio';
import { commandArgs } from './commands';
import { listModels, type ListModelsOutcome } from './model/models';
import { isLoopback, originOf } from './model/origin';
import { SECTION } from './model/settings';
import { COMMANDS } from './notices';
import { displayUrl, readSettings } from './resolve';
import { ApiKeys, checkedOrigin } from './secrets';

const configureArgs = z
  .object({ baseUrl: z.string().optional(), model: z.string().optional(), provider: z.enum(['auto', 'openai-compatible', 'vscode-lm']).optional() })
  .strict();

interface Preset extends vscode.QuickPickItem {
  url?: string;
  lm?: true;
}

const PRESETS: Preset[] = [
  { label: 'OpenAI', url: 'https://api.openai.com/v1', detail: 'https://api.openai.com/v1 · needs an API key' },
  { label: 'Ollama', url: 'http://127.0.0.1:11434/v1', detail: 'http://127.0.0.1:11434/v1 · local, no key' },
  { label: 'LM Studio', url: 'http://127.0.0.1:1234/v1', detail: 'http://127.0.0.1:1234/v1 · local, no key' },
  { label: 'vLLM', url: 'http://127.0.0.1:8000/v1', detail: 'http://127.0.0.1:8000/v1 · vllm serve' },
  { label: 'llama.cpp server', url: 'http://127.0.0.1:8080/v1', detail: 'http://127.0.0.1:8080/v1 · llama-server' },
  { label: 'Other OpenAI-compatible endpoint…', url: '', detail: 'Type its base URL' },
  { label: 'No endpoint: VS Code language models', lm: true, detail: 'Removes the endpoint settings; models a provider such as GitHub Copilot offers inside VS Code judge instead' },
];

export interface ConfigureResult {
  baseUrl: string;
  model: string;
  provider?: string;
}

/** Writes the endpoint to user settings; returns what was written, or undefined when cancelled. */
export async function configureEndpoint(studio: Studio, arg: unknown): Promise<ConfigureResult | undefined> {
  const args = commandArgs(configureArgs, arg, 'judgeStudio.configureEndpoint');
  if (args.baseUrl !== undefined || args.provider !== undefined) {
    if (args.baseUrl) checkedOrigin(args.baseUrl);
    return write(studio, { baseUrl: args.baseUrl?.trim() ?? '', model: args.model?.trim() ?? '', ...(args.provider ? { provider: args.provider } : {}) });
  }

  const current = readSettings();
  const preset = await vscode.window.showQuickPick(
    PRESETS.map((p) => ({ ...p, ...(p.url && p.url === current.baseUrl ? { description: '(current)' } : {}) })),
    { title: 'Judge Studio: Configure Endpoint (1/3)', placeHolder: 'Where should judge requests go?', matchOnDetail: true },
  );
  if (!preset) return undefined;
  if (preset.lm) {
    // `auto` with no base URL is "a VS Code model when one exists": it also resets the settings.
    const result = await write(studio, { baseUrl: '', model: '', provider: 'auto' });
    const models = await vscode.lm.selectChatModels().then((m) => m, () => []);
    void vscode.window.showInformationMessage(
      models.length
        ? `Judge Studio will judge with VS Code language models (${models.length} available).`
        : 'Judge Studio will judge with VS Code language models, but none is available yet: install a language-model provider such as GitHub Copilot.',
    );
    return result;
  }

  const baseUrl = await vscode.window.showInputBox({
    title: 'Judge Studio: Configure Endpoint (2/3)',
    prompt: 'Base URL of the OpenAI-compatible API (it usually ends in /v1)',
    value: preset.url || current.baseUrl,
    ignoreFocusOut: true,
    validateInput: (v) => {
      const o = originOf(v);
      return o.ok ? undefined : o.error;
    },
  });
  if (baseUrl === undefined) return undefined;
  const origin = checkedOrigin(baseUrl);
  const keys = new ApiKeys(studio.context);
  const model = await pickModel(baseUrl.trim(), current.model, keys, current.headers);
  if (model === undefined) return undefined;
  const result = await write(studio, { baseUrl: baseUrl.trim(), model, provider: 'auto' });

  if (!isLoopback(origin) && !(await keys.has(origin))) {
    const choice = await vscode.window.showInformationMessage(`Judge Studio: ${origin} usually needs an API key, and none is stored for it.`, 'Set API Key');
    if (choice) await vscode.commands.executeCommand(COMMANDS.setApiKey, { origin });
  } else if (!vscode.workspace.isTrusted) {
    void vscode.window.showInformationMessage(`Judge Studio will judge with ${displayUrl(baseUrl)} · ${model} once this folder is trusted.`);
  } else {
    const choice = await vscode.window.showInformationMessage(`Judge Studio will judge with ${displayUrl(baseUrl)} · ${model}.`, 'Test Connection');
    if (choice) await vscode.commands.executeCommand(COMMANDS.testConnection);
  }
  return result;
}

/** What the model step says when it could not list the endpoint's models. */
export const RESTRICTED_MODELS = 'models are not listed in Restricted Mode: Judge Studio contacts no endpoint until the folder is trusted';

/** The endpoint's models; in Restricted Mode no request at all (the workspace may have chosen the URL). */
async function modelsOf(baseUrl: string, keys: ApiKeys, headers: Record<string, string>): Promise<ListModelsOutcome> {
  if (!vscode.workspace.isTrusted) return { ok: false, error: RESTRICTED_MODELS };
  const lookup = await keys.forBaseUrl(baseUrl);
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `Listing models at ${displayUrl(baseUrl)}` },
    () => listModels({ baseUrl, headers, ...(lookup.key !== undefined ? { apiKey: lookup.key } : {}) }),
  );
}

/** A pick from the endpoint's model list when it answers, else a typed name. */
async function pickModel(baseUrl: string, currentModel: string, keys: ApiKeys, headers: Record<string, string>): Promise<string | undefined> {
  const title = 'Judge Studio: Configure Endpoint (3/3)';
  const listed = await modelsOf(baseUrl, keys, headers);
  if (listed.ok) {
    const other = '$(edit) Type a model name…';
    const items: vscode.QuickPickItem[] = [
      ...listed.ids.map((id) => ({ label: id, ...(id === currentModel ? { description: '(current)' } : {}) })),
      { label: other, alwaysShow: true },
    ];
    const picked = await vscode.window.showQuickPick(items, { title, placeHolder: 'The model that judges' });
    if (!picked) return undefined;
    if (picked.label !== other) return picked.label;
  }
  return vscode.window.showInputBox({
    title,
    prompt: listed.ok ? 'Model name' : listed.error === RESTRICTED_MODELS ? `Model name (${RESTRICTED_MODELS})` : `Model name (the endpoint did not list its models: ${listed.error})`,
    value: currentModel,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? 'Enter the model name, e.g. gpt-4o-mini or llama3.1:8b' : undefined),
  }).then((v) => v?.trim());
}

async function write(studio: Studio, result: ConfigureResult): Promise<ConfigureResult> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const global = vscode.ConfigurationTarget.Global;
  await config.update('endpoint.baseUrl', result.baseUrl === '' ? undefined : result.baseUrl, global);
  await config.update('endpoint.model', result.model === '' ? undefined : result.model, global);
  if (result.provider) await config.update('provider', result.provider === 'auto' ? undefined : result.provider, global);
  studio.log.info(`endpoint set in user settings: ${result.baseUrl ? `${displayUrl(result.baseUrl)} · model ${result.model || '(from the template)'}` : 'none'}${result.provider ? ` · provider ${result.provider}` : ''}`);
  // A trusted workspace's own values win over user settings: say so instead of looking broken.
  const shadowed = ['endpoint.baseUrl', 'endpoint.model', 'provider'].filter((k) => {
    const i = config.inspect(k);
    return vscode.workspace.isTrusted && (i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined);
  });
  if (shadowed.length) {
    void vscode.window.showWarningMessage(`Judge Studio: this workspace's settings override ${shadowed.map((k) => `${SECTION}.${k}`).join(', ')}; the user settings just written apply elsewhere.`);
  }
  return result;
}
