// Security of the run view: a judge reply whose justification holds <img onerror> and <script>
// is shown literally; no element is created from it and no script runs. The run starts from the
// "▷ Run judge" CodeLens above the template.
import { reply } from '../../support/fakeOpenAI';
import type { UiContext } from './driver';
import { expect, verdictFrame, withFakeJudge } from './run.ui';

export const title = 'an XSS payload in the judge reply stays text: no element is created and no script runs';
export const timeoutMs = 150_000;

const PAYLOAD = 'Fine answer. <img src=x onerror="window.__xss=1;document.title=\'pwned\'"><script>window.__xss=2</script><b>bold?</b>';

export async function run(ctx: UiContext): Promise<void> {
  await withFakeJudge(ctx, [() => reply({ justification: PAYLOAD, score: 3 })], async () => {
    await ctx.openFileFromExplorer('helpfulness.judge');
    const lens = ctx.page.locator('.contentWidgets .codelens-decoration a', { hasText: '▷ Run judge' }).first();
    await lens.waitFor({ timeout: 20_000 });
    await lens.click();

    const frame = await verdictFrame(ctx, 'pointwise');
    const shown = (await frame.locator('.verdict .justification').textContent()) ?? '';
    expect(shown === PAYLOAD, `the justification should read literally; it reads: ${shown}`);
    const created = await frame.locator('#root img, #root script, #root b, #root [onerror]').count();
    expect(created === 0, `${created} element(s) were created from the reply`);
    const state = await frame.evaluate(() => ({ xss: (window as unknown as { __xss?: unknown }).__xss, title: document.title, scripts: Array.from(document.scripts).filter((s) => (s.textContent ?? '').includes('__xss')).length }));
    expect(state.xss === undefined, `a script from the reply ran (window.__xss = ${String(state.xss)})`);
    expect(state.title !== 'pwned', 'the page title was changed by the reply');
    expect(state.scripts === 0, `${state.scripts} script element(s) carry the reply's code`);

    // The raw reply is shown too, and just as inert.
    await frame.locator('details.raw summary').click();
    const raw = (await frame.locator('details.raw .raw-reply pre.content').first().textContent()) ?? '';
    expect(raw.includes('<script>window.__xss=2</script>'), `the raw reply shows the payload as text: ${raw}`);
    expect((await frame.locator('#root img, #root script').count()) === 0, 'opening the raw reply created no element');
    const csp = (await frame.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')) ?? '';
    expect(/^default-src 'none'; style-src [^;]+; script-src 'nonce-[^']+'$/.test(csp), `the page's CSP is ${csp}`);
    await ctx.screenshot('run-xss-payload-as-text');
  });
}
