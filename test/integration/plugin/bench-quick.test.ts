/**
 * The quick bench (`npm run bench -- --quick`: obsidian-help-en, few passes, no peer) run in
 * process on src/main's plugin, so CI exercises the bench. Asserts only that it prints its
 * figures (numbers in every row), never how fast they are: the machine is shared.
 */
import * as fs from 'node:fs';
import VaultMcpPlugin from '../../../src/main';
import { benchHelpVault, QUICK } from '../../../scripts/bench/help-vault';
import type { PluginClass } from '../../../scripts/bench/plugin-class';
import { HELP_EN_VAULT } from '../../harness/temp-copy';

const NUMBER = String.raw`\d+(?:\.\d+)?`;

describe('quick bench on obsidian-help-en', () => {
  it('prints the absent vault and returns false when the vault is missing', async () => {
    const lines: string[] = [];
    const ran = await benchHelpVault(VaultMcpPlugin as unknown as PluginClass, `${HELP_EN_VAULT}-absent`, QUICK, (line) =>
      lines.push(line),
    );
    expect(ran).toBe(false);
    expect(lines.join('\n')).toMatch(/Skipping the obsidian-help-en benchmark: .* is absent/);
  });

  const present = fs.existsSync(HELP_EN_VAULT) ? it : it.skip;
  if (!fs.existsSync(HELP_EN_VAULT)) console.log(`Skipping the quick bench: ${HELP_EN_VAULT} is absent.`);
  present('prints a figure for every row', async () => {
    const lines: string[] = [];
    const ran = await benchHelpVault(VaultMcpPlugin as unknown as PluginClass, HELP_EN_VAULT, QUICK, (line) => lines.push(line));
    const out = lines.join('\n');
    expect(ran).toBe(true);
    expect(out).toMatch(
      new RegExp(`obsidian-help-en: \\d+ notes; host loaded and plugin listening in ${NUMBER} ms; first search answered ${NUMBER} ms`),
    );
    for (const row of ['ping \\(HTTP \\+ session round trip\\)', 'search \\(10 queries\\)', 'read_note whole note', 'read_note outline']) {
      expect(out).toMatch(new RegExp(`^${row}\\s+${NUMBER}\\s+${NUMBER}\\s+${NUMBER}\\s+\\d+$`, 'm'));
    }
    expect(out).toMatch(new RegExp(`search / read_note p50 ratio: ${NUMBER}`));
    expect(out).not.toMatch(/peer/);
  });
});
