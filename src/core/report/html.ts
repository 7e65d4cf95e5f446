// The report as one self-contained HTML file: the data as JSON in a non-executed script block, the
// page's script and style inline, allowed by their sha256 hashes under `default-src 'none'`, so
// nothing is fetched and nothing from the data can run. The script draws every string as text.
import { createHash } from 'node:crypto';
import { reportPage } from './page';
import { REPORT_CSS } from './style';
import type { ReportData } from './types';

/**
 * JSON that is inert inside `<script type="application/json">`: `<`, `>` and `&` as \u escapes, so
 * no `</script>` or `<!--` can end or change the block; U+2028/2029 escaped for old parsers.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The page's script: the function's own source, called once the document is parsed. */
export const PAGE_SCRIPT = `(${reportPage.toString()})();`;

export function contentSecurityPolicy(): string {
  return [`default-src 'none'`, `script-src ${sha256(PAGE_SCRIPT)}`, `style-src ${sha256(REPORT_CSS)}`, `img-src data:`, `base-uri 'none'`, `form-action 'none'`].join('; ');
}

export function renderReport(data: ReportData): string {
  const title = `Judge Studio report: ${data.metric} (${data.file})`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy())}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    '<noscript>This report draws its tables with JavaScript; open it in a browser with JavaScript on.</noscript>',
    '<main id="report"></main>',
    `<script type="application/json" id="report-data">${scriptJson(data)}</script>`,
    `<script>${PAGE_SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
