// Progress for long scripts (`npm start`): numbered steps with their time, a heartbeat while a
// quiet step runs (an npm install prints nothing for minutes), and a banner that stands out.
const ESC = '\x1b[';

/** Colours only on a terminal, and never with NO_COLOR set (https://no-color.org). */
export function useColor(stream = process.stdout, env = process.env) {
  return Boolean(stream.isTTY) && !('NO_COLOR' in env);
}

function paint(color, code, text) {
  return color ? `${ESC}${code}m${text}${ESC}0m` : text;
}

/** "8.1 s", "2 min 05 s". */
export function formatElapsed(ms) {
  const s = Math.round(ms / 1000);
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/**
 * `steps` numbered steps written to `out`. step(title) prints "[n/total] title" and returns
 * {done(note), fail(message)}; watch(promise, what, detail) prints a line every `everyMs` until
 * the promise settles, so a step that takes minutes never looks stuck.
 */
export function createProgress(total, { out = process.stdout, color = useColor(out), now = Date.now, everyMs = 15_000 } = {}) {
  let n = 0;
  return {
    step(title) {
      n++;
      const started = now();
      out.write(`\n${paint(color, '1', `[${n}/${total}] ${title}`)}\n`);
      return {
        done(note) {
          out.write(`      ${paint(color, '32', '✓')} ${note ? `${note} · ` : ''}${formatElapsed(now() - started)}\n`);
        },
        async watch(promise, what, detail) {
          const timer = setInterval(() => {
            const more = detail ? detail() : '';
            out.write(`      … still ${what} (${formatElapsed(now() - started)}${more ? ` · ${more}` : ''})\n`);
          }, everyMs);
          try {
            return await promise;
          } finally {
            clearInterval(timer);
          }
        },
      };
    },
  };
}

/** The lines a person must not miss, framed: the URL on a line of its own. */
export function banner(lines, { color = useColor() } = {}) {
  const width = Math.max(...lines.map((l) => [...l].length));
  const rule = '═'.repeat(width + 4);
  const body = lines.map((l) => `║  ${l}${' '.repeat(width - [...l].length)}  ║`);
  return [`╔${rule}╗`, ...body, `╚${rule}╝`].map((l) => paint(color, '1;32', l)).join('\n');
}
