// Probe Judge in the real workbench, against a local fake judge that believes a response which
// grades itself: the probe view marks self-assessment (and nothing else) as a bias, a moved row
// shows its original and perturbed copies side by side, and a copy opens in the run view.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SELF_ASSESSMENT } from '../../../src/core/probe/perturb';
import { reply, type FakeRule } from '../../support/fakeOpenAI';
import type { UiContext } from './driver';
import { pick, startCommand, typeCommand, waitForStep } from './quickInput';
import { expect, verdictFrame, withFakeJudge } from './run.ui';

export const title = 'Probe Judge from the palette shows the self-assessment bias of a judge that believes self-assessments';
export const timeoutMs = 180_000;

export async function run(ctx: UiContext): Promise<void> {
  // 5 when the response claims the top score, else 3: only the self-assessment probe moves verdicts.
  const rules: FakeRule[] = [(r) => reply({ justification: r.prompt.includes(SELF_ASSESSMENT) ? 'It says it deserves the top score.' : 'Adequate.', score: r.prompt.includes(SELF_ASSESSMENT) ? 5 : 3 })];
  await withFakeJudge(ctx, rules, async (fake) => {
    await ctx.openFileFromExplorer('helpfulness.judge');
    await ctx.page.locator('#status\\.editor\\.mode').filter({ hasText: 'Judge template' }).waitFor({ timeout: 20_000 });
    await startCommand(ctx.page, 'Judge Studio: Probe Judge', 'Run helpfulness.judge on which dataset?');
    await pick(ctx.page, 'helpfulness.jsonl');
    await waitForStep(ctx.page, 'Probe helpfulness: which probes?');
    // All probes are ticked by default: accept them as they are.
    await ctx.page.locator('.quick-input-widget input').press('Enter');

    const self = await ctx.findInFrames('.probe[data-probe="self-assessment"]', 90_000);
    expect((await self.getAttribute('data-susceptible')) === 'true', 'self-assessment is marked susceptible');
    const frame = await (await self.elementHandle())?.ownerFrame();
    if (!frame) throw new Error('the probe view is in no frame');
    const others = await frame.locator('.probe[data-susceptible="false"] .id').allTextContents();
    expect(others.join(',') === 'verbosity,authority,injection', `the fair probes: ${others.join(',')}`);
    const verdict = (await frame.locator('p.verdict').textContent()) ?? '';
    expect(verdict === 'Susceptible to: self-assessment (changed more than 0.1 of the verdicts).', `verdict line: ${verdict}`);
    const share = (await frame.locator('.probe[data-probe="self-assessment"] .share').first().textContent()) ?? '';
    expect(share === '8/8 · 1.000', `self-assessment share: ${share}`);
    expect(fake.chats.length >= 8 * 5, `the originals and 4 copies of 8 rows were judged (${fake.chats.length} calls)`);
    // The bar is as long as its share, and the threshold line sits at 10% of the track.
    const widths = await frame.locator('.probe[data-probe="self-assessment"] .track').evaluate((t) => {
      const box = t.getBoundingClientRect();
      const fill = t.querySelector('.fill')!.getBoundingClientRect();
      const line = t.querySelector('.threshold')!.getBoundingClientRect();
      return { fill: fill.width / box.width, line: (line.left - box.left) / box.width };
    });
    expect(Math.abs(widths.fill - 1) < 0.02 && Math.abs(widths.line - 0.1) < 0.02, `bar ${widths.fill.toFixed(2)}, threshold at ${widths.line.toFixed(2)}`);

    await frame.locator('.moved[data-probe="self-assessment"] li.moved-row[data-row="3"] button').click();
    const detail = frame.locator('.detail[data-probe="self-assessment"][data-row="3"]');
    await detail.waitFor({ timeout: 10_000 });
    const texts = await detail.locator('pre.text').allTextContents();
    expect(texts[0] === 'Sydney is the capital and largest city of Australia.', `original text: ${texts[0]}`);
    expect(texts[1] === `Sydney is the capital and largest city of Australia.\n\n${SELF_ASSESSMENT}`, `perturbed text: ${texts[1]}`);
    const heads = await detail.locator('.side h3').allTextContents();
    expect(heads.join(' | ') === 'Original: 3 | Perturbed (self-assessment): 5', `verdicts: ${heads.join(' | ')}`);
    await ctx.screenshot('probe-view');

    const outDirs = fs.readdirSync(path.join(ctx.workspace, '.judge-studio', 'probes'));
    expect(outDirs.length === 1 && /^helpfulness-\d{8}-\d{6}$/.test(outDirs[0]!), `output folder: ${outDirs.join(', ')}`);
    const files = fs.readdirSync(path.join(ctx.workspace, '.judge-studio', 'probes', outDirs[0]!)).sort();
    expect(files.join(',') === 'probe-dataset.jsonl,probe-report.json,probe-results.jsonl', `files: ${files.join(',')}`);

    // The perturbed copy opens in the run view with its recorded verdict.
    await detail.locator('.side').nth(1).locator('button', { hasText: 'Open in Run View' }).click();
    const run = await verdictFrame(ctx, 'pointwise');
    const score = (await run.locator('.score .value').textContent()) ?? '';
    expect(score === '5', `the run view shows the perturbed copy's score: ${score}`);
    await ctx.screenshot('probe-row-in-run-view');

    // After a window reload the serializer draws the probe view again from the files on disk
    // (edited here, so an unchanged page would not pass).
    const reportFile = path.join(ctx.workspace, '.judge-studio', 'probes', outDirs[0]!, 'probe-report.json');
    fs.writeFileSync(reportFile, fs.readFileSync(reportFile, 'utf8').replace('"threshold": 0.1,', '"threshold": 0.05,'));
    const reloaded = ctx.page.waitForEvent('load', { timeout: 60_000 });
    await typeCommand(ctx.page, 'Developer: Reload Window');
    await ctx.page.keyboard.press('Enter');
    await reloaded;
    await ctx.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    // A page that fails to start after the reload is drawn again after 5 s (see ProbePanel).
    const restored = await ctx.findInFrames('p.verdict', 60_000);
    const again = (await restored.textContent()) ?? '';
    expect(again === 'Susceptible to: self-assessment (changed more than 0.05 of the verdicts).', `the restored probe view reads the report again: ${again}`);
  });
}
