/**
 * Icons for the host's `setIcon` (obsidian.d.ts `IconName`, Lucide names: https://lucide.dev).
 * With a DOM, a few names the plugin uses are drawn as small SVGs (24×24 viewBox, stroke =
 * `currentColor`, as Obsidian's icons are); any other name, or no DOM, shows a text glyph.
 */
const SHAPES: Record<string, Array<['rect' | 'path', Record<string, string>]>> = {
  copy: [
    ['rect', { x: '8', y: '8', width: '13', height: '13', rx: '2' }],
    ['path', { d: 'M4 16V5a1 1 0 0 1 1-1h11' }],
  ],
  x: [
    ['path', { d: 'M18 6 6 18' }],
    ['path', { d: 'M6 6l12 12' }],
  ],
  'rotate-ccw': [
    ['path', { d: 'M3 12a9 9 0 1 0 3-6.7L3 8' }],
    ['path', { d: 'M3 3v5h5' }],
  ],
};

const GLYPHS: Record<string, string> = { copy: 'Copy', x: '×', 'rotate-ccw': '↺', trash: 'Delete', check: '✓', plus: '+' };

/**
 * Replaces the content of `el` with icon `icon`: an `svg.svg-icon.lucide-<icon>` when a DOM
 * exists and the shape is known, else a text glyph (the name itself when unmapped).
 */
export function drawIcon(el: HTMLElement, icon: string): void {
  el.empty();
  const shape = SHAPES[icon];
  if (!shape || typeof document === 'undefined') {
    el.setText(GLYPHS[icon] ?? icon);
    return;
  }
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  const attrs: Record<string, string> = {
    class: `svg-icon lucide-${icon}`,
    viewBox: '0 0 24 24',
    width: '16',
    height: '16',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '2',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
  };
  for (const [k, v] of Object.entries(attrs)) svg.setAttribute(k, v);
  for (const [tag, a] of shape) {
    const part = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(a)) part.setAttribute(k, v);
    svg.appendChild(part);
  }
  el.appendChild(svg);
}
