// The run history on disk (docs/history.md): `.judge-studio/history/<metric>.jsonl` in the
// workspace folder of the template, one line appended per run or batch. Files outside every
// workspace folder keep their history in the extension's workspace storage instead.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Studio } from '../studio';
import { escapingPaths, HISTORY_DIR, historyFileName, parseHistory, type HistoryEntry } from './model/history';

export interface HistoryFile {
  /** The folder paths in entries are relative to. */
  root: vscode.Uri;
  file: vscode.Uri;
  metric: string;
  entries: HistoryEntry[];
  badLines: number[];
}

export class History implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  readonly onDidChange = this.changed.event;

  constructor(private readonly studio: Studio) {
    // Other windows, git checkouts and hand edits change the files too.
    const watcher = vscode.workspace.createFileSystemWatcher(`**/${HISTORY_DIR}/*.jsonl`);
    const fire = () => this.changed.fire();
    this.disposables.push(watcher, watcher.onDidChange(fire), watcher.onDidCreate(fire), watcher.onDidDelete(fire), vscode.workspace.onDidChangeWorkspaceFolders(fire));
  }

  /** The workspace folder holding `uri`, else the extension's storage for this workspace. */
  rootFor(uri: vscode.Uri): vscode.Uri {
    return vscode.workspace.getWorkspaceFolder(uri)?.uri ?? this.fallbackRoot();
  }

  private fallbackRoot(): vscode.Uri {
    return this.studio.context.storageUri ?? this.studio.context.globalStorageUri;
  }

  /** `uri` as stored in an entry: relative to `root` with forward slashes, or absolute when outside it. */
  relative(root: vscode.Uri, uri: vscode.Uri): string {
    const rel = path.relative(root.fsPath, uri.fsPath);
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : uri.fsPath;
  }

  resolve(root: vscode.Uri, stored: string): vscode.Uri {
    return path.isAbsolute(stored) ? vscode.Uri.file(stored) : vscode.Uri.joinPath(root, ...stored.split('/'));
  }

  /** Appends one entry as a single write, so concurrent appends never interleave within a line. */
  async append(root: vscode.Uri, entry: HistoryEntry): Promise<vscode.Uri> {
    const file = vscode.Uri.joinPath(root, ...HISTORY_DIR.split('/'), historyFileName(entry.metric));
    await fs.mkdir(path.dirname(file.fsPath), { recursive: true });
    await fs.appendFile(file.fsPath, `${JSON.stringify(entry)}\n`, 'utf8');
    this.changed.fire();
    return file;
  }

  roots(): vscode.Uri[] {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri);
    return [...folders, this.fallbackRoot()];
  }

  /** Every history file of every root, entries oldest first as appended. */
  async files(): Promise<HistoryFile[]> {
    const out: HistoryFile[] = [];
    for (const root of this.roots()) {
      const dir = path.join(root.fsPath, ...HISTORY_DIR.split('/'));
      let names: string[];
      try {
        names = (await fs.readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort();
      } catch {
        continue; // no history in this folder yet
      }
      for (const name of names) {
        const file = vscode.Uri.file(path.join(dir, name));
        try {
          const parsed = parseHistory(await fs.readFile(file.fsPath, 'utf8'));
          if (parsed.badLines.length) this.studio.log.warn(`${file.fsPath}: ignored line(s) ${parsed.badLines.join(', ')} (not history entries)`);
          const workspace = root.toString() !== this.fallbackRoot().toString();
          const entries = parsed.entries.filter((entry) => {
            const escaping = escapingPaths(entry, root.fsPath, workspace);
            if (escaping.length === 0) return true;
            this.studio.log.warn(`${file.fsPath}: ignored run ${entry.id}: it names ${escaping.map((p) => JSON.stringify(p)).join(', ')}, outside ${root.fsPath}`);
            return false;
          });
          out.push({ root, file, metric: name.slice(0, -'.jsonl'.length), entries, badLines: parsed.badLines });
        } catch (e) {
          this.studio.log.warn(`cannot read the run history ${file.fsPath}`, e);
        }
      }
    }
    return out;
  }

  async find(id: string): Promise<{ entry: HistoryEntry; root: vscode.Uri; file: vscode.Uri } | undefined> {
    for (const f of await this.files()) {
      const entry = f.entries.find((e) => e.id === id);
      if (entry) return { entry, root: f.root, file: f.file };
    }
    return undefined;
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
