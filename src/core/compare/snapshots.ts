// Template snapshots: the text of every template version a run used, kept under
// `.judge-studio/templates/<hash>.judge`, so "Show template diff" can show what changed between runs.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { templateHash } from '../results';

export const SNAPSHOT_DIR = path.join('.judge-studio', 'templates');

/** Where the snapshot of a template version with this `m/template_hash` lives. */
export function snapshotPath(root: string, hash: string): string {
  if (!/^[0-9a-f]{6,64}$/.test(hash)) throw new Error(`not a template hash: ${JSON.stringify(hash.slice(0, 80))}`);
  return path.join(root, SNAPSHOT_DIR, `${hash}.judge`);
}

/**
 * Writes the snapshot once (a hash names its bytes, so an existing file is already right) and
 * returns its hash and path. Written to a temporary file and renamed, so a reader never sees half.
 */
export async function snapshotTemplate(root: string, text: string): Promise<{ hash: string; file: string }> {
  const hash = templateHash(text);
  const file = snapshotPath(root, hash);
  try {
    await fs.access(file);
    return { hash, file };
  } catch {
    // not there yet
  }
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await fs.writeFile(tmp, text, 'utf8');
  await fs.rename(tmp, file);
  return { hash, file };
}
