// Preloaded into a CLI child (`node --require`) by tests that say a command touches nothing: every
// file-system call that names a path and every socket connect is appended, one JSON line each, to
// the file named in $JUDGE_STUDIO_TEST_IO_LOG. The CLI itself knows nothing of it. Node's module
// loader reads the entry and the bundle through the same `fs`, so those two paths appear too.
import fs = require('node:fs');
import net = require('node:net');

const log = process.env.JUDGE_STUDIO_TEST_IO_LOG;
if (log) {
  // Opened before the patch and written with writeSync, which is not patched (appendFileSync would recurse).
  const fd = fs.openSync(log, 'a');
  const note = (op: string, target: unknown) => fs.writeSync(fd, `${JSON.stringify({ op, target: String(target) })}\n`);
  const patch = (o: object, names: readonly string[], prefix: string) => {
    const target = o as Record<string, unknown>;
    for (const name of names) {
      const original = target[name];
      if (typeof original !== 'function') continue;
      target[name] = function (this: unknown, first: unknown, ...rest: unknown[]) {
        note(`${prefix}${name}`, first);
        return (original as (...a: unknown[]) => unknown).call(this, first, ...rest);
      };
    }
  };
  const calls = ['open', 'readFile', 'writeFile', 'appendFile', 'stat', 'lstat', 'access', 'readdir', 'mkdir', 'rm', 'opendir', 'realpath'];
  patch(fs, [...calls, ...calls.map((c) => `${c}Sync`), 'existsSync', 'createReadStream', 'createWriteStream'], 'fs.');
  patch(fs.promises, calls, 'fs.promises.');
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    note('net.connect', JSON.stringify(args[0]));
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof connect;
}

/** Node flags and environment that make the CLI child log its file and socket access to `file`. */
export function ioSpyArgs(file: string): { nodeArgs: string[]; env: Record<string, string> } {
  return { nodeArgs: ['--require', __filename], env: { JUDGE_STUDIO_TEST_IO_LOG: file } };
}
