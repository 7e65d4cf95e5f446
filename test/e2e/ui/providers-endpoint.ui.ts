// "Configure Endpoint" from the palette against a local OpenAI-compatible server: pick "Other",
// type the base URL, pick the model the server lists, then "Test Connection" from the
// confirmation; finally reset to "No endpoint" so later tests start from default settings.
import type { Locator } from 'playwright-core';
import { FakeOpenAI, reply } from '../../support/fakeOpenAI';
import type { UiContext } from './driver';
import { answer, pick, startCommand, waitForStep } from './quickInput';

export const title = 'Configure Endpoint lists the server\'s models, writes the choice, and Test Connection reaches it';
export const timeoutMs = 120_000;

export async function run(ctx: UiContext): Promise<void> {
  const { page } = ctx;
  const fake = await FakeOpenAI.start({ rules: [() => reply({ ok: true })] });
  try {
    await startCommand(page, 'Judge Studio: Configure Endpoint', 'Configure Endpoint (1/3)');
    await pick(page, 'Other OpenAI-compatible endpoint…');
    await waitForStep(page, 'Configure Endpoint (2/3)');
    await answer(page, fake.baseURL);
    await waitForStep(page, 'Configure Endpoint (3/3)');
    await pick(page, 'm');
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === '/v1/models'), 'the model list came from the server');

    const confirm = toast(ctx, `Judge Studio will judge with ${fake.baseURL} · m.`);
    await confirm.waitFor({ state: 'visible', timeout: 20_000 });
    await confirm.getByRole('button', { name: 'Test Connection' }).click();
    const answered = toast(ctx, 'The judge answered in');
    await answered.waitFor({ state: 'visible', timeout: 20_000 });
    const said = (await answered.textContent()) ?? '';
    expect(said.includes(`: {"ok":true} (openai-compatible ${fake.baseURL} · m).`), `the answer names the reply and the judge: ${said}`);
    await ctx.screenshot('providers-endpoint-answered');
    const chat = fake.chats[0];
    expect(chat?.body?.model === 'm', `the connection test asked model m: ${JSON.stringify(chat?.body?.model)}`);
    expect(chat?.headers.authorization === undefined, 'no key is stored for this origin, so none is sent');

    await startCommand(page, 'Judge Studio: Configure Endpoint', 'Configure Endpoint (1/3)');
    await pick(page, 'No endpoint: VS Code language models');
    await toast(ctx, 'Judge Studio will judge with VS Code language models').waitFor({ state: 'visible', timeout: 20_000 });
  } finally {
    await fake.close();
  }
}

function toast(ctx: UiContext, text: string): Locator {
  return ctx.page.locator('.notifications-toasts .notification-toast.notification-fade-in-done').filter({ hasText: text });
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
}
