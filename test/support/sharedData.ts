// The public benchmark data beside the project (../shared/data: LLMBar, MT-Bench), read in place and
// never copied into it. Looked for beside the checkout and one level up (a worktree), or where
// JUDGE_STUDIO_SHARED_DATA points.
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** The folder `shared/data/<sub>`, or undefined when it is not on this machine. */
export function sharedData(sub: string): string | undefined {
  const candidates = [process.env.JUDGE_STUDIO_SHARED_DATA, path.join(ROOT, '..', 'shared', 'data'), path.join(ROOT, '..', '..', 'shared', 'data')];
  for (const c of candidates) if (c && fs.existsSync(path.join(c, sub))) return path.join(c, sub);
  return undefined;
}
