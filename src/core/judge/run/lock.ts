// One writer per results file: an exclusive lock file beside it (`<file>.lock`) naming the holder
// (pid, host, process start time, command). Two runs appending to one file would judge every
// remaining row twice and write duplicate lines. A lock whose holder is gone is stale and taken
// over: its pid is dead, or the pid now belongs to a process that started at another time (pid
// reuse, a reboot). Every front end that appends to a results file calls `acquireResultsLock`.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fsSync from 'node:fs';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';

export interface LockHolder {
  pid: number;
  host: string;
  /** When the holder's process started (ISO), when the system tells. */
  started?: string;
  /** What identifies the process start exactly (Linux: boot id + start ticks); compared, never shown. */
  startKey?: string;
  /** The command that holds it, e.g. `judge-studio run q.judge --data d.jsonl`. */
  command?: string;
  /** When the lock was taken (ISO). */
  since: string;
  /** Distinguishes two locks of one process, so a release never removes another's. */
  token: string;
}

/**
 * The lock cannot be had: another writer holds it, or (`failure`) the lock file cannot be created
 * at all (a full disk, no permission). Either way nothing was written, and front ends stop with
 * this message (CLI: exit 2).
 */
export class ResultsLockedError extends Error {
  override readonly name = 'ResultsLockedError';
  constructor(
    readonly file: string,
    readonly lockFile: string,
    readonly holder: LockHolder | undefined,
    /** Why the lock file could not be created, when no holder stopped it. */
    readonly failure?: NodeJS.ErrnoException,
  ) {
    super(failure ? cannotCreateMessage(file, lockFile, failure) : lockedMessage(file, lockFile, holder));
  }
}

function cannotCreateMessage(file: string, lockFile: string, e: NodeJS.ErrnoException): string {
  const why = e.code === 'ENOSPC' ? 'the disk is full' : e.code === 'EACCES' || e.code === 'EPERM' || e.code === 'EROFS' ? 'the folder cannot be written' : 'it failed';
  return `cannot create the lock ${lockFile} beside ${file}: ${why} (${e.code ?? e.message}); nothing was written. Free space or fix the folder's permissions (or choose an --out elsewhere), then run again`;
}

export interface ResultsLock {
  readonly file: string;
  readonly lockFile: string;
  readonly holder: LockHolder;
  /** Removes the lock if it is still ours; safe to call twice. */
  release(): Promise<void>;
}

export interface LockOptions {
  /** Shown to a second writer, e.g. the command line. */
  command?: string;
}

export function lockFileFor(file: string): string {
  return `${file}.lock`;
}

/**
 * Takes the lock of `file` or throws `ResultsLockedError` naming the live holder. A stale lock is
 * replaced. The lock is also removed if the process exits without releasing it (process.exit);
 * after a hard kill the next writer finds it stale.
 */
export async function acquireResultsLock(file: string, opts: LockOptions = {}): Promise<ResultsLock> {
  const lockFile = lockFileFor(file);
  const holder = ownHolder(opts.command);
  const text = `${JSON.stringify(holder)}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await create(lockFile, text).catch((e: NodeJS.ErrnoException) => Promise.reject(new ResultsLockedError(file, lockFile, undefined, e)))) return held(file, lockFile, holder);
    const existing = await readHolder(lockFile);
    if (existing === 'gone') continue; // released between our try and our read
    if (existing !== undefined && !isStale(existing)) throw new ResultsLockedError(file, lockFile, existing);
    if (existing === undefined && !(await unreadableIsOld(lockFile))) throw new ResultsLockedError(file, lockFile, undefined);
    await removeStale(lockFile, existing);
  }
  throw new ResultsLockedError(file, lockFile, undefined);
}

/** Runs `fn` holding the lock of `file`; the lock is released however `fn` ends. */
export async function withResultsLock<T>(file: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const lock = await acquireResultsLock(file, opts);
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}

/** `pid 123 on host h (started …), running "…", since …`. */
export function describeHolder(holder: LockHolder): string {
  const started = holder.started ? `, started ${holder.started}` : '';
  const command = holder.command ? `, running "${holder.command}"` : '';
  return `pid ${holder.pid} on ${holder.host}${started}${command}, since ${holder.since}`;
}

function lockedMessage(file: string, lockFile: string, holder: LockHolder | undefined): string {
  if (!holder) {
    return `${file} is locked by another writer (${lockFile} is being written or cannot be read); wait for it to finish, or delete ${lockFile} if no run uses this file`;
  }
  const elsewhere = holder.host !== os.hostname() ? ` If that machine no longer runs it, delete ${lockFile}.` : '';
  return `${file} is being written by another run (${describeHolder(holder)}); wait for it to finish or stop it, then try again.${elsewhere}`;
}

/**
 * Writes the lock whole before it can be seen: a temporary file linked into place (link fails if
 * the lock exists). The temporary file goes whatever happens, a full disk included.
 */
async function create(lockFile: string, text: string): Promise<boolean> {
  const tmp = `${lockFile}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fs.writeFile(tmp, text, { flag: 'wx' });
    await fs.link(tmp, lockFile);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw e;
    // A file system without hard links: exclusive create (a crash mid-write leaves an unreadable lock, handled as stale later).
    try {
      await fs.writeFile(lockFile, text, { flag: 'wx' });
      return true;
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e2;
    }
  } finally {
    await fs.unlink(tmp).catch(() => undefined);
  }
}

/** The holder named in the lock; undefined when it cannot be read; 'gone' when there is no lock any more. */
async function readHolder(lockFile: string): Promise<LockHolder | undefined | 'gone'> {
  let text: string;
  try {
    text = await fs.readFile(lockFile, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    return undefined;
  }
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (typeof h.pid !== 'number' || !Number.isInteger(h.pid) || h.pid <= 0 || typeof h.host !== 'string' || typeof h.token !== 'string') return undefined;
    return {
      pid: h.pid,
      host: h.host,
      since: typeof h.since === 'string' ? h.since : '?',
      token: h.token,
      ...(typeof h.started === 'string' ? { started: h.started } : {}),
      ...(typeof h.startKey === 'string' ? { startKey: h.startKey } : {}),
      ...(typeof h.command === 'string' ? { command: h.command.slice(0, 500) } : {}),
    };
  } catch {
    return undefined;
  }
}

/** An unreadable lock (a crash while it was created without link support) is stale after a minute. */
async function unreadableIsOld(lockFile: string): Promise<boolean> {
  const stat = await fs.stat(lockFile).catch(() => undefined);
  return stat === undefined || Date.now() - stat.mtimeMs > 60_000;
}

/** Dead pid, or a live pid whose process started at another time. Another host's lock is never stale to us. */
function isStale(holder: LockHolder): boolean {
  if (holder.host !== os.hostname()) return false;
  if (!pidAlive(holder.pid)) return true;
  if (holder.startKey === undefined) return false;
  const now = processStart(holder.pid)?.startKey;
  return now !== undefined && now !== holder.startKey;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Moves a stale lock aside and deletes it. If what was moved is not the stale lock we read (another
 * writer replaced it meanwhile), it is put back.
 */
async function removeStale(lockFile: string, seen: LockHolder | undefined): Promise<void> {
  const aside = `${lockFile}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    await fs.rename(lockFile, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  const moved = await readHolder(aside);
  const same = moved === seen || (typeof moved === 'object' && seen !== undefined && moved.token === seen.token);
  if (!same) await fs.link(aside, lockFile).catch(() => undefined);
  await fs.unlink(aside).catch(() => undefined);
}

function held(file: string, lockFile: string, holder: LockHolder): ResultsLock {
  let released = false;
  const onExit = () => {
    if (!released) releaseSync(lockFile, holder.token);
  };
  process.once('exit', onExit);
  return {
    file,
    lockFile,
    holder,
    async release() {
      if (released) return;
      released = true;
      process.removeListener('exit', onExit);
      const current = await readHolder(lockFile);
      if (typeof current === 'object' && current.token === holder.token) await fs.unlink(lockFile).catch(() => undefined);
    },
  };
}

function releaseSync(lockFile: string, token: string): void {
  try {
    const h = JSON.parse(fsSync.readFileSync(lockFile, 'utf8')) as { token?: unknown };
    if (h.token === token) fsSync.unlinkSync(lockFile);
  } catch {
    // already gone or unreadable: nothing of ours to remove
  }
}

let own: { started?: string; startKey?: string } | undefined;

function ownHolder(command: string | undefined): LockHolder {
  own ??= processStart(process.pid) ?? { started: new Date(Date.now() - process.uptime() * 1000).toISOString() };
  return {
    pid: process.pid,
    host: os.hostname(),
    ...(own.started ? { started: own.started } : {}),
    ...(own.startKey ? { startKey: own.startKey } : {}),
    ...(command ? { command } : {}),
    since: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
}

/** A process's start time: Linux from /proc (exact, with the boot id), elsewhere from `ps`; undefined when unknown. */
function processStart(pid: number): { started?: string; startKey: string } | undefined {
  if (process.platform === 'linux') {
    try {
      const stat = fsSync.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces and parentheses); starttime is field 22.
      const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      const boot = fsSync.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      const btime = /^btime (\d+)$/m.exec(fsSync.readFileSync('/proc/stat', 'utf8'))?.[1];
      if (ticks === undefined || !/^\d+$/.test(ticks)) return undefined;
      // Clock ticks are 100 per second on every Linux Node supports; the ISO time is for people only.
      const started = btime !== undefined ? new Date((Number(btime) + Number(ticks) / 100) * 1000).toISOString() : undefined;
      return { startKey: `${boot}:${ticks}`, ...(started ? { started } : {}) };
    } catch {
      return undefined;
    }
  }
  if (process.platform === 'win32') return undefined;
  try {
    const lstart = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 2_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (lstart === '') return undefined;
    const date = new Date(lstart);
    return { startKey: lstart, ...(Number.isNaN(date.getTime()) ? {} : { started: date.toISOString() }) };
  } catch {
    return undefined;
  }
}
