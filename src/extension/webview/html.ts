// The page every view loads, as pure string building (unit-tested without the editor). The CSP
// lets in only the page's own nonce-tagged script and stylesheets from the webview's origin; data
// reaches the page only through an HTML-escaped data- attribute, never as inline script.
import { randomBytes } from 'node:crypto';

export interface PageParts<T> {
  /** webview.cspSource */
  cspSource: string;
  /** From nonce(): random, a new one per page. */
  nonce: string;
  scriptUri: string;
  /** The view's own stylesheet. */
  styleUri: string;
  /** The stylesheet every view shares (media/base.css), linked first so the view's own can refine it. */
  baseStyleUri?: string;
  title: string;
  /** The view's InitialData: its persisted state and what to draw first. */
  initial: T;
}

export function pageHtml<T>(p: PageParts<T>): string {
  // No 'unsafe-inline' for styles: the calibration heat map sets its shades through the CSSOM (style.setProperty), which CSP allows.
  const csp = `default-src 'none'; style-src ${p.cspSource}; script-src 'nonce-${p.nonce}'`;
  const styles = [p.baseStyleUri, p.styleUri].filter((href) => href !== undefined).map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles.join('\n')}
<title>${escapeHtml(p.title)}</title>
</head>
<body data-initial="${escapeHtml(JSON.stringify(p.initial))}">
<main id="root" aria-live="polite"></main>
<script type="module" nonce="${escapeHtml(p.nonce)}" src="${escapeHtml(p.scriptUri)}"></script>
</body>
</html>`;
}

/** A fresh CSP nonce from node:crypto (never Math.random). */
export function nonce(): string {
  return randomBytes(18).toString('base64');
}

/** Escapes text for HTML content and double-quoted attributes (every attribute here is double-quoted). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}
