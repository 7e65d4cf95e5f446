// What a CLI command needs from its host, so commands run in-process in tests.

export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Aborted on Ctrl-C (SIGINT); long commands stop cleanly and keep what they finished. */
  signal?: AbortSignal;
}

/** design.md exit codes. */
export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

/** A usage or unreadable-input problem: printed as one line, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type Command = (args: string[], io: CliIO) => Promise<number>;
