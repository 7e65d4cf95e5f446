// Renders media/icon.svg to media/icon.png (256 × 256), the Marketplace icon: the Marketplace and
// vsce take a PNG of at least 128 px, never an SVG. Uses the Chromium the e2e tests drive.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const svg = readFileSync(path.join(root, 'media/icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 256, height: 256 } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator('svg').screenshot({ path: path.join(root, 'media/icon.png'), omitBackground: true });
  console.log('icon: wrote media/icon.png (256 × 256)');
} finally {
  await browser.close();
}
