// The preview page. Pure string building: the host passes in the URIs and a fresh nonce. Data
// reaches the page only through an HTML-escaped data- attribute, never as inline script.
import type { InitialData } from '../../protocol/preview';

export interface PageParts {
  /** webview.cspSource */
  cspSource: string;
  /** Random, base64 or hex; a new one per page. */
  nonce: string;
  scriptUri: string;
  styleUri: string;
  title: string;
  initial: InitialData;
}

export function previewHtml(p: PageParts): string {
  const csp = `default-src 'none'; style-src ${p.cspSource}; script-src 'nonce-${p.nonce}'`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(p.styleUri)}">
<title>${escapeHtml(p.title)}</title>
</head>
<body data-initial="${escapeHtml(JSON.stringify(p.initial))}">
<main id="root" aria-live="polite"></main>
<script type="module" nonce="${escapeHtml(p.nonce)}" src="${escapeHtml(p.scriptUri)}"></script>
</body>
</html>`;
}

/** Escapes text for HTML content and double-quoted attributes (every attribute here is double-quoted). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}
