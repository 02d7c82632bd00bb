import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { createHash, randomBytes } from 'node:crypto';

/** Environment variable naming the registry folder (tests, portable setups); else the app-data folder. */
export const REGISTRY_DIR_ENV = 'VAULT_MCP_REGISTRY_DIR';
/** The registry file inside the folder. */
export const REGISTRY_FILE = 'vaults.json';
/** Most entries kept; a longer file is cut (it is ours, and only open vaults belong in it). */
const MAX_ENTRIES = 64;
/** A lock older than this (ms) was left by a crashed writer and is broken. */
const STALE_LOCK_MS = 10_000;
/** How long a writer waits for the lock before giving up, ms. */
const LOCK_WAIT_MS = 3_000;

/**
 * One open vault in the registry. Nothing in it is secret: forwarding is authenticated with a
 * signature the receiving vault checks against `public_key` (see forward-assertion.ts).
 */
export interface VaultEntry {
  /** Stable id of the vault: the first 16 hex digits of SHA-256 of its folder path. */
  id: string;
  /** The vault's name (its folder name, as Obsidian shows it). */
  name: string;
  /** Absolute path of the vault folder. */
  path: string;
  /** Loopback port of its MCP server. */
  port: number;
  /** Process id of the Obsidian window serving it; a dead pid marks a stale entry. */
  pid: number;
  /** This run's Ed25519 public key (SPKI DER, base64): verifies calls it forwards. */
  public_key: string;
  /** ISO 8601 time the entry was written. */
  started_at: string;
}

/**
 * The registry folder: `$VAULT_MCP_REGISTRY_DIR` when set, else `vault-mcp` in the user's
 * app-data folder (Windows `%APPDATA%`, macOS `~/Library/Application Support`, elsewhere
 * `$XDG_CONFIG_HOME` or `~/.config`, per the XDG Base Directory spec).
 */
export function registryFolder(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home = os.homedir(),
): string {
  const override = env[REGISTRY_DIR_ENV];
  if (override && override.trim() !== '') return nodePath.resolve(override);
  if (platform === 'win32') return nodePath.join(env.APPDATA || nodePath.join(home, 'AppData', 'Roaming'), 'vault-mcp');
  if (platform === 'darwin') return nodePath.join(home, 'Library', 'Application Support', 'vault-mcp');
  return nodePath.join(env.XDG_CONFIG_HOME || nodePath.join(home, '.config'), 'vault-mcp');
}

/** The registry id of a vault folder (see {@link VaultEntry.id}). */
export function vaultIdOf(folder: string): string {
  return createHash('sha256').update(nodePath.resolve(folder).normalize('NFC'), 'utf8').digest('hex').slice(0, 16);
}

/** True while process `pid` exists (signal 0 probes without sending; EPERM means it exists). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The registry of open vaults: one small JSON file (`{vaults: VaultEntry[]}`) shared by every
 * running Vault MCP plugin of the user. Writers take a lock folder (mkdir is atomic) and replace
 * the file by rename (atomic on one file system), so readers never see half a file. Entries
 * whose process is gone are pruned on every read and write. Unreadable or malformed content
 * reads as an empty registry, and malformed entries are dropped one by one.
 */
export class VaultRegistry {
  private readonly file: string;

  /**
   * @param folder the registry folder (see {@link registryFolder}); created (mode 0700) on first write.
   * @param isAlive whether a pid is running (tests may fake it).
   */
  constructor(
    readonly folder: string,
    private readonly isAlive: (pid: number) => boolean = isProcessAlive,
  ) {
    this.file = nodePath.join(folder, REGISTRY_FILE);
  }

  /** Live entries, stale ones pruned from the file as a side effect. */
  async list(): Promise<VaultEntry[]> {
    const entries = await this.read();
    const live = entries.filter((e) => this.isAlive(e.pid));
    if (live.length !== entries.length) await this.update((current) => current).catch(() => undefined);
    return live;
  }

  /**
   * Adds `entry`, replacing any entry with the same id (the vault reopened), and prunes stale ones.
   * @throws Error when the folder cannot be written or the lock is not free within 3 s.
   */
  async register(entry: VaultEntry): Promise<void> {
    await this.update((entries) => [...entries.filter((e) => e.id !== entry.id), entry]);
  }

  /** Removes the entry of vault `id` written by process `pid` (another process's newer entry stays). */
  async unregister(id: string, pid: number): Promise<void> {
    await this.update((entries) => entries.filter((e) => !(e.id === id && e.pid === pid)));
  }

  private async read(): Promise<VaultEntry[]> {
    let text: string;
    try {
      text = await fsp.readFile(this.file, 'utf8');
    } catch {
      return [];
    }
    try {
      const parsed = JSON.parse(text) as { vaults?: unknown };
      return Array.isArray(parsed.vaults) ? parsed.vaults.filter(isVaultEntry).slice(0, MAX_ENTRIES) : [];
    } catch {
      return [];
    }
  }

  /** Read-modify-write under the lock; live entries only, written atomically. */
  private async update(change: (entries: VaultEntry[]) => VaultEntry[]): Promise<void> {
    await fsp.mkdir(this.folder, { recursive: true, mode: 0o700 });
    const release = await this.lock();
    try {
      const next = change((await this.read()).filter((e) => this.isAlive(e.pid))).slice(-MAX_ENTRIES);
      const temp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      await fsp.writeFile(temp, `${JSON.stringify({ vaults: next }, null, 2)}\n`, { mode: 0o600 });
      await fsp.rename(temp, this.file);
    } finally {
      await release();
    }
  }

  private async lock(): Promise<() => Promise<void>> {
    const lock = `${this.file}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        await fsp.mkdir(lock);
        return () => fsp.rm(lock, { recursive: true, force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const age = await fsp.stat(lock).then(
          (s) => Date.now() - s.mtimeMs,
          () => 0,
        );
        if (age > STALE_LOCK_MS) await fsp.rm(lock, { recursive: true, force: true });
        else if (Date.now() > deadline) throw new Error(`The vault registry ${this.file} is locked by another Obsidian window; try again.`);
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }
}

/** True for a well-formed entry (types and ranges), so a hand-edited file cannot inject nonsense. */
function isVaultEntry(value: unknown): value is VaultEntry {
  if (value === null || typeof value !== 'object') return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.id === 'string' &&
    /^[0-9a-f]{16}$/.test(e.id) &&
    typeof e.name === 'string' &&
    e.name.length <= 255 &&
    typeof e.path === 'string' &&
    e.path.length <= 4096 &&
    nodePath.isAbsolute(e.path) &&
    Number.isInteger(e.port) &&
    (e.port as number) > 0 &&
    (e.port as number) < 65536 &&
    Number.isInteger(e.pid) &&
    (e.pid as number) > 0 &&
    typeof e.public_key === 'string' &&
    e.public_key.length <= 200 &&
    typeof e.started_at === 'string'
  );
}
