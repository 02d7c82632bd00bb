import * as nodePath from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { VaultListing } from '../../tools/read/vaults-view';
import type { VaultLocation } from '../../vault/vault-location';
import { foldPath } from '../../vault/paths/paths';
import { ForwardIdentity, ForwardVerifier, RECEIPT_HEADER, verifyReceipt, type ForwardClaims } from './forward-assertion';
import { MCP_PATH } from '../http/endpoint';
import { quoteInput } from '../../errors';
import { clusterPrefix } from '../../vault/content/text/graphemes';
import { ForwardError, forwardToolCall } from './forward-client';
import { loopbackFetch } from './loopback-fetch';
import { toolErrorResult as failure } from '../session/rpc-errors';
import { vaultIdOf, type VaultEntry, type VaultRegistry } from './vault-registry';

/** Where a tool's `vault` argument points: this vault, another open one, or nowhere (with why). */
export type VaultTarget = { kind: 'self' } | { kind: 'peer'; entry: VaultEntry; handle: string } | { kind: 'unknown'; message: string };

/**
 * This vault among the user's other open vaults (docs/several-vaults.md): announces itself in
 * the {@link VaultRegistry} while its server listens, lists the open vaults with handles,
 * resolves a tool's `vault` argument, forwards calls to another vault signed with this run's
 * {@link ForwardIdentity}, and verifies calls forwarded to it.
 */
export class VaultPeers {
  /** This vault's registry id, or null when it has no folder on disk (then it is not registered). */
  readonly selfId: string | null;
  readonly verifier: ForwardVerifier | null;
  private readonly identity = new ForwardIdentity();
  private announced: { port: number } | null = null;
  private leaving: Promise<void> = Promise.resolve();

  /** @param location this vault's name and folder. @param registry the shared registry file. */
  constructor(
    readonly location: VaultLocation,
    private readonly registry: VaultRegistry,
  ) {
    this.selfId = location.folder ? vaultIdOf(location.folder) : null;
    const selfId = this.selfId;
    this.verifier = selfId
      ? new ForwardVerifier(
          selfId,
          async (id) => (await this.registry.list()).find((e) => e.id === id && e.id !== selfId)?.public_key ?? null,
        )
      : null;
  }

  /** Registers this vault as serving on `port`; failures are logged, not thrown (the server works without). */
  async announce(port: number): Promise<void> {
    if (!this.selfId || !this.location.folder) return;
    this.announced = { port };
    const entry: VaultEntry = {
      id: this.selfId,
      name: this.location.name,
      path: this.location.folder,
      port,
      pid: process.pid,
      public_key: this.identity.publicKey,
      started_at: new Date().toISOString(),
    };
    await this.registry.register(entry).catch((error) => console.error('[vault-mcp] could not register in the vault registry', error));
  }

  /**
   * Removes this vault's entry (on server stop or plugin unload); failures are logged. A second
   * call while the first is under way resolves when the entry is gone.
   */
  withdraw(): Promise<void> {
    if (this.selfId && this.announced) {
      this.announced = null;
      const id = this.selfId;
      this.leaving = this.registry
        .unregister(id, process.pid)
        .catch((error) => console.error('[vault-mcp] could not leave the vault registry', error));
    }
    return this.leaving;
  }

  /** Open vaults with handles (this one always included, first), for the `vaults` tool. */
  async list(): Promise<VaultListing[]> {
    const { self, peers } = await this.handles();
    return [self, ...peers.map(({ entry, handle }) => ({ handle, name: entry.name, path: entry.path, active: false }))];
  }

  /**
   * Resolves a `vault` argument: a handle from `vaults` (any case), a registry id, or the vault
   * folder's absolute path. A bare name shared by several open vaults (whose handles are then
   * `name~id`) is `unknown` with a message naming each candidate's handle and path; the input is
   * quoted in messages up to MAX_ECHO_CHARS (errors.ts) chars.
   */
  async resolve(input: string): Promise<VaultTarget> {
    const wanted = input.trim();
    const { self, peers } = await this.handles();
    const samePath = (path: string): boolean => nodePath.isAbsolute(wanted) && foldedPath(path) === foldedPath(wanted);
    // A handle's id part may be written longer, up to the whole registry id (`Work~8c2482d932512e1a` for `Work~8c2482`).
    const longHandle = /^(.+)~([0-9a-f]{6,})$/i.exec(wanted);
    const longFor = (entry: { name: string; id: string | null }): boolean =>
      longHandle !== null &&
      entry.id !== null &&
      longHandle[1].toLowerCase() === entry.name.toLowerCase() &&
      entry.id.startsWith(longHandle[2].toLowerCase());
    if (
      wanted.toLowerCase() === self.handle.toLowerCase() ||
      wanted === this.selfId ||
      this.location.folderSpellings.some(samePath) ||
      longFor({ name: self.name, id: this.selfId })
    )
      return { kind: 'self' };
    const peer = peers.find(
      ({ entry, handle }) => handle.toLowerCase() === wanted.toLowerCase() || entry.id === wanted || samePath(entry.path) || longFor(entry),
    );
    if (peer) return { kind: 'peer', ...peer };
    const named = [
      { handle: self.handle, name: self.name, path: self.path },
      ...peers.map(({ entry, handle }) => ({ handle, name: entry.name, path: entry.path })),
    ].filter((v) => v.name.toLowerCase() === wanted.toLowerCase());
    if (named.length > 1) {
      const list = named.map((v) => `${v.handle} (${v.path})`).join(', ');
      return { kind: 'unknown', message: `${quoteInput(wanted)} names ${named.length} open vaults: ${list}; use one of these handles.` };
    }
    return { kind: 'unknown', message: `No open vault ${quoteInput(wanted)}; call vaults for the handles of the vaults open in Obsidian.` };
  }

  /**
   * Calls tool `name` with `args` in vault `entry` as the key labelled `label` there, over HTTP
   * as an MCP client (one short session: initialize, tools/call, terminate; forward-client.ts). Each HTTP
   * request carries a fresh signed assertion (see {@link ForwardIdentity.token}), and each
   * successful answer must carry the registered vault's receipt for it: a program on that port
   * that is not that vault gets one `initialize` with signed claims and never the tool call.
   * @param roots the client's MCP roots (absolute paths) to apply there too, or null.
   * @returns the other vault's result as it sent it; an `isError` result with one sentence when
   *   that vault refuses (no key with this label, switched off) or does not answer.
   */
  async forward(
    entry: VaultEntry,
    handle: string,
    { label, mode }: Pick<ForwardClaims, 'label' | 'mode'>,
    roots: string[] | null,
    name: string,
    args: Record<string, unknown>,
  ): Promise<CallToolResult> {
    const selfId = this.selfId;
    if (!selfId) return failure(`This vault has no folder on disk, so it cannot forward calls to '${handle}'.`);
    const sign = (): string => this.identity.token({ iss: selfId, aud: entry.id, label, mode, roots });
    const signedFetch = async (url: string, init: RequestInit): Promise<Response> => {
      const headers = new Headers(init.headers);
      const token = sign();
      headers.set('Authorization', `Bearer ${token}`);
      const response = await loopbackFetch(url, { ...init, headers });
      if (response.ok && !verifyReceipt(entry.public_key, token, response.headers.get(RECEIPT_HEADER))) {
        await response.body?.cancel().catch(() => undefined);
        throw new Error(`${UNPROVEN} port ${entry.port}`);
      }
      return response;
    };
    try {
      return await forwardToolCall(
        `http://127.0.0.1:${entry.port}${MCP_PATH}`,
        signedFetch,
        `vault-mcp forwarding from ${this.location.name}`,
        name,
        args,
      );
    } catch (error) {
      return failure(refusalOf(error, handle, entry.port));
    }
  }

  /** The {@link RECEIPT_HEADER} value for a forwarded token this vault accepted. */
  receipt(token: string): string {
    return this.identity.receipt(token);
  }

  /** This vault's listing and the other live entries with unique handles (name, else name~id). */
  private async handles(): Promise<{ self: VaultListing; peers: Array<{ entry: VaultEntry; handle: string }> }> {
    const entries = (await this.registry.list()).filter((e) => e.id !== this.selfId);
    const names = [this.location.name, ...entries.map((e) => e.name)].map((n) => n.toLowerCase());
    const handleOf = (name: string, id: string | null): string =>
      names.filter((n) => n === name.toLowerCase()).length > 1 && id ? `${name}~${id.slice(0, 6)}` : name;
    const self: VaultListing = {
      handle: handleOf(this.location.name, this.selfId),
      name: this.location.name,
      path: this.location.folder ?? '',
      active: true,
    };
    const peers = entries.sort((a, b) => a.name.localeCompare(b.name)).map((entry) => ({ entry, handle: handleOf(entry.name, entry.id) }));
    return { self, peers };
  }
}

/** Marks the error of an answer without a valid receipt (see {@link VaultPeers.forward}). */
const UNPROVEN = 'no valid Vault-Mcp-Receipt from';

/**
 * One sentence for a failed forward: the other vault's own refusal message when it answered
 * with a JSON-RPC error, else that it did not answer.
 */
function refusalOf(error: unknown, handle: string, port: number): string {
  if (error instanceof ForwardError && error.refusal !== null) return `Vault '${handle}' refused the call: ${error.refusal}`;
  const text = error instanceof Error ? error.message : String(error);
  if (text.includes(UNPROVEN))
    return `Vault '${handle}': the program on port ${port} is not the vault the registry names (no valid receipt), so the call was not sent; reopen that vault in Obsidian.`;
  if (/ECONNREFUSED|fetch failed/i.test(text))
    return `Vault '${handle}' does not answer on port ${port}; is it still open in Obsidian with its server on?`;
  return `Vault '${handle}' could not run the call: ${clusterPrefix(text, 300)}`;
}

/** A path for comparison: resolved, NFC, without a trailing separator, case-folded (foldPath) where disks ignore case. */
function foldedPath(path: string): string {
  const resolved = nodePath
    .resolve(path)
    .normalize('NFC')
    .replace(/[\\/]+$/, '');
  return process.platform === 'win32' || process.platform === 'darwin' ? foldPath(resolved) : resolved;
}
