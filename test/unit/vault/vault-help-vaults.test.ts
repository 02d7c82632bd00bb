import * as fs from 'node:fs';
import * as path from 'node:path';
import type { App } from 'obsidian';
import { ToolError } from '../../../src/errors';
import type { AccessScope } from '../../../src/vault/access/access';
import { NoteStore } from '../../../src/vault/note-store';
import { sectionAt } from '../../../src/vault/content/sections';
import { createHostApp, type HostApp } from '../../host/index';

/**
 * NoteStore over the real Obsidian Help vaults (read only: nothing here writes). They live
 * outside the repo; the suite is skipped with a message when they are absent.
 */
const VAULTS = path.resolve(__dirname, '../../../../shared/vaults');
const SCOPE: AccessScope = { label: 'Test agent', roots: [] };

for (const name of ['obsidian-help-en', 'obsidian-help-intl']) {
  const dir = path.join(VAULTS, name);
  const present = fs.existsSync(dir);
  if (!present) console.log(`Skipping NoteStore tests on ${name}: ${dir} is absent.`);
  const d = present ? describe : describe.skip;

  d(`NoteStore on ${name}`, () => {
    let host: HostApp;
    let store: NoteStore;

    beforeAll(async () => {
      host = await createHostApp({ vaultPath: dir, watchIntervalMs: false });
      store = new NoteStore(host as unknown as App, { quarantine: () => [] });
    });

    afterAll(async () => {
      await host?.close();
    });

    test('every note resolves by its path, without .md, percent-encoded, and by its id', () => {
      const notes = store.readableNotes(SCOPE);
      expect(notes.length).toBeGreaterThan(100);
      for (const file of notes) {
        expect(store.policy.resolveNote({ path: file.path }, SCOPE)).toBe(file);
        expect(store.policy.resolveNote({ path: file.path.slice(0, -3) }, SCOPE)).toBe(file);
        expect(store.policy.resolveNote({ path: encodeURI(file.path) }, SCOPE)).toBe(file);
        expect(store.policy.resolveNote({ id: store.noteId(file) }, SCOPE)).toBe(file);
      }
    });

    test('a bare note name resolves to a note of that name or is ambiguous among several', () => {
      for (const file of store.readableNotes(SCOPE)) {
        try {
          expect(store.policy.resolveNote({ path: file.basename }, SCOPE).basename.toLowerCase()).toBe(file.basename.toLowerCase());
        } catch (err) {
          expect(err).toBeInstanceOf(ToolError);
          expect((err as ToolError).code).toBe('ambiguous');
          expect((err as ToolError).message).toContain(file.path);
        }
      }
    });

    test('outlines nest: each section starts at its heading and lies inside its parent', async () => {
      let headings = 0;
      for (const file of store.readableNotes(SCOPE)) {
        const text = await store.readRaw(file);
        const outline = store.outline(file, text);
        headings += outline.length;
        const byPath = new Map(outline.map((s) => [s.path, s]));
        for (const s of outline) {
          expect(s.end).toBeGreaterThan(s.start);
          expect(s.end).toBeLessThanOrEqual(text.length);
          expect(text.slice(s.start, s.end).trimStart().length).toBeGreaterThan(0);
          const parentPath = s.path.includes('.') ? s.path.slice(0, s.path.lastIndexOf('.')) : null;
          if (parentPath) {
            const parent = byPath.get(parentPath)!;
            expect(parent.level).toBeLessThan(s.level);
            expect(s.start).toBeGreaterThan(parent.start);
            expect(s.end).toBeLessThanOrEqual(parent.end);
          }
          expect(sectionAt(outline, s.start)).toBe(s);
        }
      }
      expect(headings).toBeGreaterThan(1000);
    });

    test('links and tags only name readable notes', () => {
      const readable = new Set(store.readableNotes(SCOPE).map((f) => f.path));
      for (const file of store.readableNotes(SCOPE).slice(0, 60)) {
        const links = store.linksOf(file, SCOPE);
        for (const l of [...links.outgoing, ...links.backlinks]) {
          if (l.path.endsWith('.md')) expect(readable.has(l.path)).toBe(true);
        }
      }
      for (const { tag, count } of store.tagCounts(SCOPE)) {
        expect(tag.startsWith('#')).toBe(true);
        expect(count).toBeGreaterThan(0);
      }
    });
  });
}
