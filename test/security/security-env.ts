import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import VaultMcpPlugin from '../../src/main';
import { bootPlugin, connectClient, type BootOptions, type BootedPlugin } from '../harness/boot-plugin';
import { openRawSession } from '../harness/server/raw-http';
import { startPeerEnv, type PeerEnv } from './peer-env';

/**
 * The hostile vault the security suites run against: private notes in every spelling the
 * access rules know, quarantined folders, symbolic links out of the vault into a sentinel
 * folder, a read-only note, a non-UTF-8 note, plain notes an agent may change, skills and
 * AGENTS.md files hidden in each of those ways, and a vault registry with forged peers. Every
 * hidden byte carries {@link SECRET_MARK}, so an answer that shows it is a leak.
 */

/** Text found only in notes and files the agent may not read. */
export const SECRET_MARK = 'zqxsecretmark';

/** A note's content: text (written as UTF-8) or exact bytes. */
type Content = string | Buffer;

/** The vault's notes (vault path → content). */
export const VAULT_FILES: Record<string, Content> = {
  'Public/Open.md': '# Open\n\nSee [[Secret/Kx1]] and [[Cap1]].\n',
  'Public/Linker.md': 'Links to [[Plain]] and [[Rooted/Inside]].\n',
  'Secret/Kx1.md': `---\naccess: private\n---\n${SECRET_MARK} plan\n`,
  'Secret/Open.md': '# Secret folder, public note\n',
  'Cap1.md': `---\nAccess: private\ntags: [${SECRET_MARK}tag]\n---\n${SECRET_MARK} cap\n`,
  'Brk1.md': `---\naccess: private\ntitle: "unclosed\n---\n${SECRET_MARK} broken\n`,
  'Dup1.md': `---\naccess: private\ntags: a\ntags: a\n---\n${SECRET_MARK} dup\n`,
  // Indented and broken: a rule in any position of a block that does not parse counts.
  'Yzw1.md': `---\n  access: private\n  tags: [a, b\n---\n${SECRET_MARK} indented\n`,
  'Ovr1.md': `---\nagent_overrides:\n  Test client: no-access\n  Test client propose: no-access\n---\n${SECRET_MARK} override\n`,
  'RO.md': '---\naccess: read-only\n---\nread only body, linking [[Secret/Kx1]] so its folder never moves\n',
  '_private/Q1.md': `${SECRET_MARK} quarantined\n`,
  '.hidden/Q1.md': `${SECRET_MARK} dot folder\n`,
  'Latin1.md': Buffer.from('caf\u00e9 [[LatinTargets/Target]]\n', 'latin1'),
  'LatinTargets/Target.md': '# Linked from a Latin-1 note\n',
  'Plain.md': '---\nstatus: draft\n---\n# Plain\n\nplain body\n',
  'Empty.md': '',
  'Proto.md': '# Proto\n',
  'Rooted/Inside.md': '# Inside\n',
  'Redos.md': `${'a'.repeat(40)}!\n`,
  'Skills/good/SKILL.md': '---\nname: Good\ndescription: A public skill\n---\nDo good things.\n',
  'Skills/good/ref.md': 'reference\n',
  'Skills/good/hidden-ref.md': `---\naccess: private\n---\n${SECRET_MARK} skill file\n`,
  'Skills/good/_private/q.txt': `${SECRET_MARK} quarantined skill file\n`,
  'Skills/secret/SKILL.md': `---\nname: Secret ${SECRET_MARK}\ndescription: hidden skill\naccess: private\n---\n${SECRET_MARK} skill\n`,
  'Skills/capsec/SKILL.md': `---\nAccess: private\nname: Cap ${SECRET_MARK}\ndescription: hidden\n---\n${SECRET_MARK} cap skill\n`,
  'Skills/brksec/SKILL.md': `---\naccess: private\nname: "unclosed ${SECRET_MARK}\n---\n${SECRET_MARK} broken skill\n`,
  'Skills/_private/SKILL.md': `---\nname: Quarantined ${SECRET_MARK}\ndescription: q\n---\n${SECRET_MARK} quarantined skill\n`,
  'Gov/AGENTS.md': `---\naccess: private\n---\n${SECRET_MARK} governance\n`,
  'Gov/Note.md': '# Governed by a private AGENTS.md\n',
  'Gov/Brk/AGENTS.md': `---\nAccess: private\ntitle: "unclosed\n---\n${SECRET_MARK} broken governance\n`,
  'Gov/Brk/Note.md': '# Governed by a broken private AGENTS.md\n',
  'Gov/Sub/Note.md': '# Governed by an AGENTS.md linked out of the vault\n',
  '_private/AGENTS.md': `${SECRET_MARK} quarantined governance\n`,
};

/**
 * Hidden paths no answer may name (listing, completion, prompts, skills, agent_md): private,
 * quarantined and linked-out notes, hidden skills and hidden AGENTS.md files.
 */
export const HIDDEN_NAMES = [
  'Secret/Kx1.md',
  'Cap1.md',
  'Brk1.md',
  'Dup1.md',
  'Yzw1.md',
  'Ovr1.md',
  '_private/Q1.md',
  '.hidden/Q1.md',
  'LinkedDir/secret.md',
  'passwd.md',
  'Public/Deep/note.md',
  'Skills/secret',
  'Skills/capsec',
  'Skills/brksec',
  'Skills/_private',
  'Skills/linked',
  'Skills/linkfile',
  'hidden-ref.md',
  'Skills/good/linked.txt',
  'Skills/good/_private',
  'Gov/AGENTS.md',
  'Gov/Brk/AGENTS.md',
  'Gov/Sub/AGENTS.md',
  '_private/AGENTS.md',
];

/** Vault files whose bytes no tool call may change (the sentinel checks them after every case). */
export const PROTECTED_VAULT_FILES = [
  'Secret/Kx1.md',
  'Cap1.md',
  'Brk1.md',
  'Dup1.md',
  'Yzw1.md',
  'Ovr1.md',
  'RO.md',
  '_private/Q1.md',
  '.hidden/Q1.md',
  'Latin1.md',
  'Plain.md',
  'Public/Linker.md',
  'Skills/secret/SKILL.md',
  'Skills/good/hidden-ref.md',
  'Gov/AGENTS.md',
  'Gov/Brk/AGENTS.md',
  '_private/AGENTS.md',
];

/** Hidden and read-only notes: no call may change their bytes, whatever else a fuzz run does. */
export const HIDDEN_VAULT_FILES = [
  'Secret/Kx1.md',
  'Cap1.md',
  'Brk1.md',
  'Dup1.md',
  'Yzw1.md',
  'Ovr1.md',
  'RO.md',
  '_private/Q1.md',
  '.hidden/Q1.md',
  'Skills/secret/SKILL.md',
  'Skills/good/hidden-ref.md',
  'Gov/AGENTS.md',
  'Gov/Brk/AGENTS.md',
];

/** The booted environment of a security suite. */
export interface SecurityEnv {
  booted: BootedPlugin<VaultMcpPlugin>;
  client: Client;
  /** The vault folder. */
  vault: string;
  /** The sentinel folder outside the vault (symbolic links in the vault point into it). */
  outside: string;
  /** The folder holding both (a `../` that escapes the vault lands here). */
  root: string;
  port: number;
  /** Tokens: the run key's (force), a revoked key's, a cloud-only key's, one of a key confined to `Rooted/` and one of a propose key. */
  tokens: { valid: string; revoked: string; cloud: string; rooted: string; propose: string };
  /** The vault registry with forged peers and foreign listeners (see peer-env.ts). */
  peers: PeerEnv;
  /** Headers of a raw session opened with the run key. */
  session: Record<string, string>;
  /** Headers of a raw session opened with the run key at MCP 2025-03-26, the last revision with JSON-RPC batches. */
  batchSession: Record<string, string>;
  /**
   * A fingerprint of everything no call may change: the outside folder, the root folder's
   * entries and the vault files listed (default {@link PROTECTED_VAULT_FILES}).
   */
  snapshot(files?: readonly string[]): Promise<string>;
  done(): Promise<void>;
}

/** Hashes every file below `dir` (names, link targets and bytes), in name order. */
async function fingerprintTree(dir: string, into: string[]): Promise<void> {
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = nodePath.join(dir, entry.name);
    if (entry.isDirectory()) {
      into.push(`d ${full}`);
      await fingerprintTree(full, into);
    } else if (entry.isSymbolicLink()) {
      into.push(`l ${full} -> ${await fsp.readlink(full)}`);
    } else {
      into.push(
        `f ${full} ${createHash('sha256')
          .update(await fsp.readFile(full))
          .digest('hex')}`,
      );
    }
  }
}

/**
 * Builds the hostile vault beside a sentinel folder in a new temp folder, boots the plugin
 * there (a force key with every write tool on), mints the extra keys and connects a client.
 */
export async function bootSecurityEnv(options: Partial<BootOptions> = {}): Promise<SecurityEnv> {
  const root = await fsp.mkdtemp(nodePath.join(os.tmpdir(), 'vault-mcp-secsuite-'));
  const vault = nodePath.join(root, 'vault');
  const outside = nodePath.join(root, 'outside');
  await fsp.mkdir(nodePath.join(outside, 'deeper'), { recursive: true });
  await fsp.writeFile(nodePath.join(outside, 'secret.md'), `${SECRET_MARK} outside\n`);
  await fsp.writeFile(nodePath.join(outside, 'deeper', 'note.md'), `${SECRET_MARK} deeper\n`);
  for (const [path, content] of Object.entries(VAULT_FILES)) {
    await fsp.mkdir(nodePath.dirname(nodePath.join(vault, path)), { recursive: true });
    await fsp.writeFile(nodePath.join(vault, path), content);
  }
  await fsp.symlink(outside, nodePath.join(vault, 'LinkedDir'), 'dir');
  await fsp.symlink(nodePath.join(outside, 'secret.md'), nodePath.join(vault, 'passwd.md'), 'file');
  await fsp.symlink(nodePath.join(outside, 'deeper'), nodePath.join(vault, 'Public', 'Deep'), 'dir');
  await fsp.mkdir(nodePath.join(outside, 'skill'));
  await fsp.writeFile(
    nodePath.join(outside, 'skill', 'SKILL.md'),
    `---\nname: Linked ${SECRET_MARK}\ndescription: outside\n---\n${SECRET_MARK} linked skill\n`,
  );
  await fsp.writeFile(nodePath.join(outside, 'agents.md'), `${SECRET_MARK} outside governance\n`);
  await fsp.symlink(nodePath.join(outside, 'skill'), nodePath.join(vault, 'Skills', 'linked'), 'dir');
  await fsp.symlink(nodePath.join(outside, 'secret.md'), nodePath.join(vault, 'Skills', 'good', 'linked.txt'), 'file');
  // A skill file that is a link to a private note inside the vault, and a hard link of a quarantined note.
  await fsp.symlink('../../Secret/Kx1.md', nodePath.join(vault, 'Skills', 'good', 'private-link.txt'), 'file');
  await fsp.link(nodePath.join(vault, '_private', 'Q1.md'), nodePath.join(vault, 'Skills', 'good', 'hard.txt'));
  await fsp.mkdir(nodePath.join(vault, 'Skills', 'linkfile'));
  await fsp.symlink(nodePath.join(outside, 'skill', 'SKILL.md'), nodePath.join(vault, 'Skills', 'linkfile', 'SKILL.md'), 'file');
  await fsp.symlink(nodePath.join(outside, 'agents.md'), nodePath.join(vault, 'Gov', 'Sub', 'AGENTS.md'), 'file');
  const peers = await startPeerEnv(nodePath.join(root, 'registry'), vault);
  const booted = await bootPlugin(VaultMcpPlugin, { vaultPath: vault, mode: 'force', allowWrites: true, ...options });
  const ring = booted.plugin.keyRing;
  const revoked = await ring.mint({ label: 'Revoked client', mode: 'force', token: 'vmcp_revoked-token-0123456789' });
  await ring.revoke(revoked.record.id);
  const cloud = await ring.mint({ label: 'Cloud client', scope: 'cloud', mode: 'force', token: 'vmcp_cloud-token-0123456789ab' });
  const rooted = await ring.mint({ label: 'Rooted client', mode: 'force', roots: ['Rooted'], token: 'vmcp_rooted-token-0123456789a' });
  const propose = await ring.mint({ label: 'Test client propose', mode: 'propose', token: 'vmcp_propose-token-0123456789' });
  await peers.register(booted.port);
  const client = await connectClient(booted.url, booted.token);
  const session = await openRawSession(booted.port, booted.token);
  const batchSession = await openRawSession(booted.port, booted.token, '2025-03-26');
  const snapshot = async (files: readonly string[] = PROTECTED_VAULT_FILES): Promise<string> => {
    const lines: string[] = [];
    await fingerprintTree(outside, lines);
    for (const entry of (await fsp.readdir(root)).sort()) lines.push(`r ${entry}`);
    for (const path of files) {
      const bytes = await fsp.readFile(nodePath.join(vault, path)).catch(() => Buffer.from('<missing>'));
      lines.push(`p ${path} ${createHash('sha256').update(bytes).digest('hex')}`);
    }
    return lines.join('\n');
  };
  return {
    booted,
    client,
    vault,
    outside,
    root,
    port: booted.port,
    tokens: { valid: booted.token, revoked: revoked.token, cloud: cloud.token, rooted: rooted.token, propose: propose.token },
    session,
    batchSession,
    peers,
    snapshot,
    done: async () => {
      await client.close().catch(() => undefined);
      await booted.stop();
      await peers.close();
      await fsp.rm(root, { recursive: true, force: true });
    },
  };
}
