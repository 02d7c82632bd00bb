import { Setting } from 'obsidian';
import { showSettingError } from '../setting-error';
import { stampField } from '../../../settings/field-times';
import type { SectionContext } from '../tab-context';

/** Bounds of the two limits the user may type (a log of 1000 MB or kept 10 years is past what the file is for). */
const MAX_MEGABYTES = 1000;
const MAX_DAYS = 3650;

/**
 * The "Agent activity" section: what the agent activity log keeps
 * (docs/architecture.md#agent-activity): its largest size in megabytes and how many days an entry is kept, oldest
 * dropped first; and how much it holds now.
 */
export function renderActivitySection(containerEl: HTMLElement, ctx: SectionContext): void {
  const { plugin } = ctx;
  const limits = plugin.settings.activity;
  const heading = new Setting(containerEl).setName('Agent activity').setHeading();
  const held = plugin.activity
    ? ` It holds ${plugin.activity.all().length} changes now (${formatMegabytes(plugin.activity.sizeBytes())} of ${limits.maxMegabytes} MB).`
    : '';
  heading.setDesc(
    `Every change force-mode keys make, and every proposal you accept, is logged with what undoes it, so you can revert it in the agent activity view.${held}`,
  );
  limitSetting(
    containerEl,
    ctx,
    'Activity log size',
    `Largest size of the log in megabytes (1–${MAX_MEGABYTES}); past it the oldest changes of the key taking the most room are dropped first.`,
    'maxMegabytes',
    MAX_MEGABYTES,
  );
  limitSetting(
    containerEl,
    ctx,
    'Keep activity for',
    `Days a change stays in the log (1–${MAX_DAYS}); older ones are dropped.`,
    'maxDays',
    MAX_DAYS,
  );
}

/** One numeric limit row: validated as typed, saved when valid. */
function limitSetting(
  containerEl: HTMLElement,
  ctx: SectionContext,
  name: string,
  desc: string,
  field: 'maxMegabytes' | 'maxDays',
  max: number,
): void {
  const setting = new Setting(containerEl).setName(name).setDesc(desc);
  setting.addText((text) => {
    text.inputEl.setAttr('inputmode', 'numeric');
    text.setValue(String(ctx.plugin.settings.activity[field])).onChange(async (value) => {
      const parsed = parseLimit(value, max);
      showSettingError(setting, typeof parsed === 'string' ? parsed : null);
      if (typeof parsed === 'string') return;
      if (parsed === ctx.plugin.settings.activity[field]) return;
      ctx.plugin.settings.activity[field] = parsed;
      // Stamped, so a synced data.json merges it field by field (settings/field-times.ts).
      stampField('activity', ctx.plugin.settings.activity, field);
      await ctx.plugin.saveSettings();
    });
  });
}

/**
 * A limit as typed: a whole number from 1 to `max`.
 * @returns the number, or one sentence saying what to type.
 */
export function parseLimit(value: string, max: number): number | string {
  const trimmed = value.trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1 || Number(trimmed) > max) return `Type a whole number from 1 to ${max}.`;
  return Number(trimmed);
}

/** Bytes as megabytes with one decimal ("0.3 MB"). */
function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
