// The run view's page. Pure string building with the preview's escaping: the host passes in the
// URIs and a fresh nonce; data reaches the page only through an HTML-escaped data- attribute.
import type { InitialData } from '../../protocol/run';
import { escapeHtml } from '../preview/html';

export interface PageParts {
  /** webview.cspSource */
  cspSource: string;
  /** Random (node:crypto), a new one per page. */
  nonce: string;
  scriptUri: string;
  styleUri: string;
  title: string;
  initial: InitialData;
}

export function runHtml(p: PageParts): string {
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
