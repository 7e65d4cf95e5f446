// The setup most CLI tests share: a fresh temp folder as the working directory, a local fake
// OpenAI-compatible server on 127.0.0.1, and `cli(args)` running the CLI in process there with
// its own judge cache. Call it inside a `describe`: it registers that suite's hooks.
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { FakeOpenAI } from './fakeOpenAI';
import { captureIO, tempDir, type CapturedIO } from './judgeFixtures';

export interface CliWorkspace {
  /** This test's working directory (new for each test). */
  readonly dir: string;
  /** This test's fake judge server (started before each test, closed after it). */
  readonly fake: FakeOpenAI;
  /** Runs `judge-studio <args>` in `dir`, with the cache under `dir/cache`. */
  cli(args: string[]): Promise<{ code: number; io: CapturedIO }>;
}

export function cliWorkspace(): CliWorkspace {
  let dir = '';
  let fake: FakeOpenAI | undefined;
  beforeEach(async () => {
    dir = tempDir();
    fake = await FakeOpenAI.start();
  });
  afterEach(() => fake?.close());
  return {
    get dir() {
      return dir;
    },
    get fake() {
      if (!fake) throw new Error('cliWorkspace().fake is used outside a test');
      return fake;
    },
    async cli(args) {
      const io = captureIO(dir, { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') });
      return { code: await main(args, io), io };
    },
  };
}
