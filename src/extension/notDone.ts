// A command started from the editor that ends without doing its work says why. A refusal is a
// notification (the command's own words); a question the user dismissed (Escape on a quick pick,
// a closed file dialog) is not worth a toast, but it is a line in the Judge Studio log, so "I ran it
// and nothing happened" has an answer where people look (Output → Judge Studio).
export interface InfoLog {
  info(message: string): void;
}

/** Logs `<command>: <why>; nothing was done.` and returns undefined, for `return notDone(…)`. */
export function notDone(log: InfoLog, command: string, why: string): undefined {
  log.info(`${command}: ${why}; nothing was done.`);
  return undefined;
}
