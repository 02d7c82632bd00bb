/** @jest-environment ./test/harness/env/jsdom-node-env.js */
import { Notice } from '../../host/index';
import { keptAsideMessage, type KeptAside } from '../../../src/activity/kept-aside';
import { KeptAsideNotice } from '../../../src/ui/activity/kept-aside-notice';

/**
 * The Notice for text the activity log kept aside (ui/activity/kept-aside-notice.ts): one per
 * trim however many files it wrote, counting them and naming the folder, and no stack of sticky
 * Notices: a later trim while one is shown rewrites it; after the user clicked it away, a new one.
 */
const item = (n: number, error?: string): KeptAside => ({
  id: `a_00000000000${n}`,
  note: `Notes/N${n}.md`,
  file: `.trash/Vault MCP a_00000000000${n} N${n}.md`,
  ...(error !== undefined ? { error } : {}),
});

describe('kept-aside Notice', () => {
  beforeEach(() => Notice.clear());

  it('says what one file is, and counts several with the folder they are in', () => {
    expect(keptAsideMessage([item(1)])).toBe(
      "The agent activity log is full, so change a_000000000001 to 'Notes/N1.md' left it; the text it would restore is kept in .trash/Vault MCP a_000000000001 N1.md.",
    );
    expect(keptAsideMessage([item(1), item(2), item(3)])).toBe(
      'The agent activity log is full, so 3 changes left it; the text they would restore is kept in 3 files in the vault\'s .trash folder, named "Vault MCP <change id> <note name>.md".',
    );
    expect(keptAsideMessage([item(1), item(2, 'EACCES'), item(3, 'ENOSPC')])).toBe(
      'The agent activity log is full, so 3 changes left it; the text one of them would restore is kept in .trash/Vault MCP a_000000000001 N1.md; the text of 2 could not be kept in .trash (EACCES).',
    );
    const aside = (n: number): KeptAside => ({
      ...item(n),
      file: `.obsidian/plugins/vault-mcp/kept-aside/Vault MCP a_00000000000${n} N${n}.md`,
    });
    expect(keptAsideMessage([aside(1), aside(2)])).toBe(
      'The agent activity log is full, so 2 changes left it; the text they would restore is kept in 2 files in .obsidian/plugins/vault-mcp/kept-aside, named "Vault MCP <change id> <note name>.md".',
    );
    expect(keptAsideMessage([item(1, 'EACCES')])).toBe(
      "The agent activity log dropped change a_000000000001 to 'Notes/N1.md' and could not keep its text in .trash/Vault MCP a_000000000001 N1.md (EACCES).",
    );
  });

  it('one sticky Notice per trim; a later trim while it is shown rewrites it; once dismissed, a new one', () => {
    const notice = new KeptAsideNotice();
    notice.report([item(1), item(2)]);
    expect(Notice.shown).toEqual([{ message: expect.stringContaining('so 2 changes left it'), duration: 0 }]);
    notice.report([item(3)]);
    notice.report([item(4), item(5)]);
    expect(Notice.shown).toEqual([{ message: expect.stringContaining('so 5 changes left it'), duration: 0 }]);
    expect(Notice.shown[0].message).toContain("kept in 5 files in the vault's .trash folder");
    // The user clicks it away: the next trim opens a new Notice counting only its own files.
    const shown = document.body.querySelectorAll('.notice');
    expect(shown).toHaveLength(1);
    (shown[0] as HTMLElement).click();
    expect(document.body.querySelectorAll('.notice')).toHaveLength(0);
    notice.report([item(6)]);
    expect(Notice.messages()).toHaveLength(2);
    expect(Notice.messages()[1]).toMatch(/^The agent activity log is full, so change a_000000000006 to 'Notes\/N6\.md' left it/);
  });
});
