import { isWidgetId, MAX_WIDGET_CHARS, parseWidgetManifest } from '../../../src/vault/widgets/widget-manifest';
import { widgetsFolderPath } from '../../../src/vault/widgets/widget-folder';
import { migrateSettings } from '../../../src/settings/migrate-settings';
import { NEVER_CHANGED } from '../../../src/settings/settings';
import { WIDGET_CHANNEL_SCRIPT, WIDGET_CSP, widgetDocument } from '../../../src/ui/widgets/widget-frame';

const manifest = (json: string, attrs = 'type="application/json" id="vault-mcp-widget"'): string =>
  `<html><head><script ${attrs}>${json}</script></head><body></body></html>`;

describe('widget manifest', () => {
  it('reads name, description and query; description may be left out', () => {
    expect(parseWidgetManifest(manifest('{"name": " Board ", "description": "d", "query": "LIMIT 3"}'))).toEqual({
      ok: true,
      manifest: { name: 'Board', description: 'd', query: 'LIMIT 3' },
    });
    expect(parseWidgetManifest(manifest('{"name": "B", "query": ""}'))).toEqual({
      ok: true,
      manifest: { name: 'B', description: '', query: '' },
    });
  });

  it('finds the element whatever the attribute order, quoting or case; other scripts and data-id are not it', () => {
    const html =
      '<script>var id = "vault-mcp-widget";</script><script data-id="vault-mcp-widget" type="application/json">{}</script>' +
      '<SCRIPT\nTYPE=\'Application/JSON\'\nID=vault-mcp-widget>{"name": "x", "query": ""}</Script >';
    expect(parseWidgetManifest(html)).toEqual({ ok: true, manifest: { name: 'x', description: '', query: '' } });
  });

  it('refuses what is not one well-formed JSON manifest, saying what to fix', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /no manifest/],
      [
        manifest('{"name":"x","query":""}', 'id="vault-mcp-widget" type="module"'),
        /must have type="application\/json" \(it has "module"\)/,
      ],
      [manifest('{"name":"x","query":"</script>"}'), /not valid JSON/],
      [manifest('null'), /must be a JSON object/],
      [manifest('{"name":"   ","query":""}'), /non-empty string "name"/],
      [manifest(`{"name":"${'n'.repeat(121)}","query":""}`), /"name" is longer than 120/],
      [manifest(`{"name":"x","query":"","description":"${'d'.repeat(1001)}"}`), /"description" is longer than 1000/],
      [manifest(`{"name":"x","query":"${'q'.repeat(2001)}"}`), /"query" is longer than 2000/],
      [manifest('{"name":"x","query":7}'), /needs a string "query"/],
      [`${manifest('{"name":"x","query":""}')}${manifest('{"name":"y","query":""}')}`, /more than one element has id "vault-mcp-widget"/],
      ['x'.repeat(MAX_WIDGET_CHARS + 1), /at most 524288 are allowed/],
    ];
    for (const [html, error] of cases) {
      const result = parseWidgetManifest(html);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(/^Invalid widget manifest: .*\.$/s);
      if (!result.ok) expect(result.error).toMatch(error);
    }
  });

  it('a text full of unclosed <script tags is scanned to its end and answered', () => {
    expect(parseWidgetManifest('<script id="vault-mcp-widget" '.repeat(15000))).toEqual({
      ok: false,
      error: expect.stringMatching(/no manifest/),
    });
    expect(parseWidgetManifest(`<script type="application/json" id="vault-mcp-widget">${'{'.repeat(200000)}`)).toEqual({
      ok: false,
      error: expect.stringMatching(/not closed/),
    });
    // Many manifest start tags before one far-away end tag: answered after the second.
    expect(
      parseWidgetManifest(`${'<script type="application/json" id="vault-mcp-widget">'.repeat(9000)}${'x'.repeat(30000)}</script>`),
    ).toEqual({ ok: false, error: expect.stringMatching(/more than one element/) });
  });

  it('ids are safe file names', () => {
    for (const id of ['a', 'reading-list', 'Board_2', '0', 'x'.repeat(64)]) expect(isWidgetId(id)).toBe(true);
    for (const id of ['', '-a', '_a', 'a.b', 'a/b', 'a\\b', '..', 'a b', 'é', 'x'.repeat(65), 'a\n']) expect(isWidgetId(id)).toBe(false);
  });
});

describe('widgets folder setting', () => {
  it('is normalized; anything unusable means Widgets', () => {
    expect(widgetsFolderPath('Dash/Boards/')).toBe('Dash/Boards');
    expect(widgetsFolderPath('./A\\B')).toBe('A/B');
    for (const bad of ['', '/', '../out', 'C:\\x', 'a\u0000b', 3, null, undefined]) expect(widgetsFolderPath(bad)).toBe('Widgets');
  });

  it('is migrated: absent or not a string in data.json means Widgets, a saved one is kept', () => {
    expect(migrateSettings({}).widgets).toEqual({ folder: 'Widgets', changed_at: NEVER_CHANGED });
    expect(migrateSettings({ widgets: { folder: 5 } }).widgets).toEqual({ folder: 'Widgets', changed_at: NEVER_CHANGED });
    expect(migrateSettings({ widgets: 'x' }).widgets).toEqual({ folder: 'Widgets', changed_at: NEVER_CHANGED });
    expect(migrateSettings({ widgets: { folder: 'Boards' } }).widgets).toEqual({ folder: 'Boards', changed_at: NEVER_CHANGED });
  });
});

describe('widget document', () => {
  // The CSP first, then the plugin's channel script, before anything of the widget's own.
  const meta = `<meta http-equiv="Content-Security-Policy" content="${WIDGET_CSP}">${WIDGET_CHANNEL_SCRIPT}`;
  it('puts the CSP and the channel script first, after a leading doctype so standards mode is kept', () => {
    expect(widgetDocument('<!DOCTYPE html>\n<html><head></head></html>')).toBe(`<!DOCTYPE html>${meta}\n<html><head></head></html>`);
    expect(widgetDocument('  <!doctype html><p>x')).toBe(`  <!doctype html>${meta}<p>x`);
    expect(widgetDocument('<p>no doctype</p>')).toBe(`${meta}<p>no doctype</p>`);
    expect(widgetDocument('<!-- c --><!doctype html>')).toBe(`${meta}<!-- c --><!doctype html>`);
  });
});
