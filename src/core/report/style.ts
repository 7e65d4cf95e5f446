// The report page's stylesheet (inline, allowed by its hash in the page's CSP). Light and dark follow the OS.
export const REPORT_CSS = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #fff; --line: #d1d9e0; --card: #f6f8fa; --good: #1a7f37; --bad: #cf222e; --accent: #0969da; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --line: #3d444d; --card: #151b23; --good: #3fb950; --bad: #f85149; --accent: #4493f8; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 1200px; margin: 0 auto; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 10px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.muted { color: var(--muted); } .good { color: var(--good); } .bad { color: var(--bad); }
.cards { display: flex; flex-wrap: wrap; gap: 10px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; min-width: 150px; }
.card .name { font-size: 12px; color: var(--muted); } .card .value { font-size: 24px; font-weight: 600; } .card .ci { font-size: 12px; color: var(--muted); }
table { border-collapse: collapse; } th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--card); font-weight: 600; }
table.heat td { text-align: center; min-width: 56px; font-variant-numeric: tabular-nums; }
table.heat td.diag { outline: 2px solid var(--accent); outline-offset: -2px; }
.bar { display: inline-block; height: 10px; background: var(--bad); vertical-align: middle; margin-right: 6px; }
.controls { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; margin-bottom: 8px; }
input[type=search] { min-width: 260px; padding: 4px 8px; }
button, select, input { font: inherit; }
table.rows { width: 100%; table-layout: fixed; } table.rows td { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 13px; }
table.rows col.num { width: 64px; } table.rows col.v { width: 90px; }
tr.disagree td.v { color: var(--bad); font-weight: 600; } tr.failed td { background: color-mix(in srgb, var(--bad) 8%, transparent); }
.diff { font: 12px/1.4 ui-monospace, monospace; white-space: pre-wrap; border: 1px solid var(--line); padding: 8px; max-height: 420px; overflow: auto; }
.diff .add { color: var(--good); } .diff .del { color: var(--bad); }
svg text { fill: var(--fg); font-size: 11px; } svg .axis { stroke: var(--muted); } svg .grid { stroke: var(--line); }
`;
