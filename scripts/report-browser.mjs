// The report page as a person sees it, in Debian's Chromium with JavaScript on: the heading figures
// equal calibrate's, the heat map cells its confusion matrix, 100,000 rows page 100 at a time and
// search, a hostile judge reply stays text, no request leaves the page and no CSP violation is
// reported. Saves its screenshot under .test-output/report/ (REPORT_SCREENSHOT=docs writes the README's
// docs/images/report.png instead, by hand). Fails (never skips) without Chromium: setup-e2e.sh installs it.
// Run after `npm run build`: node scripts/report-browser.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchBrowser } from '../test/e2e/harness/browser.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const ROWS = 100_000;
const HOSTILE = '</script><img src=x onerror="window.__pwned=1"><!-- <b>bold</b>';
const dir = mkdtempSync(path.join(tmpdir(), 'report-browser-'));
const deadline = Date.now() + 60_000;

function cli(args) {
  return execFileSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A pointwise 1–5 run: the judge is off by one on about a fifth of the rows, and 1% fail. */
function writeResults(file) {
  const lines = [];
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 1; i <= ROWS; i++) {
    const human = 1 + Math.floor(rand() * 5);
    const row = { id: `q${i}`, prompt: `Question number ${i}`, response: `Answer ${i}`, _row: i, 'quality/human_rating': human };
    if (i % 100 === 0) Object.assign(row, { 'quality/error': 'HTTP 429 from the endpoint', 'quality/error_kind': i % 300 === 0 ? 'timeout' : 'rate-limit' });
    else {
      const off = rand() < 0.2 ? (human === 5 ? -1 : 1) : 0;
      row['quality/score'] = human + off;
      row['quality/justification'] = i === 4242 ? HOSTILE : `The answer to question ${i} is ${off ? 'partly' : 'fully'} right.`;
    }
    if (i === 77777) row.response = 'needle-in-the-haystack';
    lines.push(JSON.stringify(row));
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
}

let browser;
try {
  const results = path.join(dir, 'results.jsonl');
  writeResults(results);
  let t = Date.now();
  cli(['report', 'results.jsonl', '--html', 'report.html']);
  const build = Date.now() - t;
  const calibration = JSON.parse(cli(['calibrate', 'results.jsonl', '--metric', 'quality', '--json']));

  browser = await launchBrowser();
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const requests = [];
  const problems = [];
  const url = pathToFileURL(path.join(dir, 'report.html')).href;
  page.on('request', (r) => {
    if (r.url() !== url) requests.push(r.url());
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content.Security.Policy/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));

  t = Date.now();
  await page.goto(url);
  await page.waitForFunction(() => /page 1 of/.test(document.getElementById('page-status')?.textContent ?? ''), undefined, { timeout: 20_000 });
  const open = Date.now() - t;

  // The heading figures are calibrate's, rounded for display, each with an interval.
  for (const key of ['accuracy', 'balanced_accuracy', 'cohen_kappa', 'quadratic_weighted_kappa', 'spearman']) {
    const card = page.locator(`.card[data-figure="${key}"]`);
    assert.equal(await card.locator('.value').textContent(), calibration[key].toFixed(3), key);
    const ci = await card.locator('.ci').textContent();
    const [low, high] = ci.replace('95% CI ', '').split(' – ').map(Number);
    assert.ok(low <= calibration[key] && calibration[key] <= high, `${key} ${calibration[key]} inside ${ci}`);
  }
  // The heat map: one cell per human × judge label, holding calibrate's count.
  const labels = calibration.labels;
  assert.equal(await page.locator('table.heat td').count(), labels.length * labels.length);
  for (const [i, h] of labels.entries()) {
    for (const [j, jl] of labels.entries()) {
      assert.equal(await page.locator(`table.heat td[data-human="${h}"][data-judge="${jl}"]`).textContent(), String(calibration.confusion_matrix[i][j]));
    }
  }
  assert.match(await page.locator('#failures').textContent(), /rate-limit\s*667.*timeout\s*333/s);

  // Paging through all rows: 100 in the DOM at a time.
  await page.selectOption('select[aria-label="Which rows"]', 'all');
  const status = page.locator('#page-status');
  await page.waitForFunction(() => document.getElementById('page-status')?.textContent?.includes('of 100000'));
  assert.equal(await status.textContent(), 'rows 1–100 of 100000 · page 1 of 1000');
  assert.equal(await page.locator('table.rows tbody tr').count(), 100);
  await page.click('text=Next ›');
  assert.equal(await status.textContent(), 'rows 101–200 of 100000 · page 2 of 1000');
  assert.equal(await page.locator('table.rows tbody tr').first().getAttribute('data-row'), '101');
  await page.click('text=‹ Prev');
  assert.equal(await status.textContent(), 'rows 1–100 of 100000 · page 1 of 1000');
  const failedOnly = page.locator('select[aria-label="Which rows"]');
  await failedOnly.selectOption('failed');
  assert.equal(await status.textContent(), 'rows 1–100 of 1000 · page 1 of 10');

  // Search, over every row, not only the page shown.
  await failedOnly.selectOption('all');
  t = Date.now();
  await page.fill('input[type=search]', 'needle-in-the-haystack');
  await page.waitForFunction(() => document.getElementById('page-status')?.textContent === 'rows 1–1 of 1 · page 1 of 1');
  const searchMs = Date.now() - t;
  assert.equal(await page.locator('table.rows tbody tr').first().getAttribute('data-row'), '77777');

  // The hostile reply is text: no image element, no script ran, the markup shown as typed.
  await page.fill('input[type=search]', 'onerror=');
  await page.waitForSelector('table.rows tbody tr[data-row="4242"]');
  assert.equal(await status.textContent(), 'rows 1–1 of 1 · page 1 of 1');
  assert.equal(await page.locator('table.rows tbody tr td').nth(3).textContent(), HOSTILE);
  assert.equal(await page.locator('img, b').count(), 0);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);

  // Back to the disagreements for the picture.
  await page.fill('input[type=search]', '');
  await failedOnly.selectOption('disagree');
  await page.waitForFunction(() => !document.getElementById('page-status')?.textContent?.includes('of 1 '));
  await page.evaluate(() => window.scrollTo(0, 0));
  // A test run never rewrites a tracked file: the README's image is refreshed only when asked.
  const shot = process.env.REPORT_SCREENSHOT === 'docs' ? path.join(ROOT, 'docs', 'images', 'report.png') : path.join(ROOT, '.test-output', 'report', 'report.png');
  mkdirSync(path.dirname(shot), { recursive: true });
  await page.screenshot({ path: shot, clip: { x: 0, y: 0, width: 1280, height: 1000 } });

  assert.deepEqual(requests, [], 'the page requested nothing');
  assert.deepEqual(problems, [], 'no CSP violation or page error');
  assert.ok(Date.now() < deadline, 'under 60 s');
  console.log(`report-browser: ok — ${ROWS} rows: report written in ${(build / 1000).toFixed(1)} s, page open in ${(open / 1000).toFixed(2)} s, search in ${searchMs} ms; screenshot ${path.relative(ROOT, shot)}`);
} catch (e) {
  console.error(`report-browser: FAILED: ${e.stack ?? e}`);
  process.exitCode = 1;
} finally {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
}
