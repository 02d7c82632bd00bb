import { Setting } from 'obsidian';
import { stampField } from '../../../settings/field-times';
import type { SectionContext } from '../tab-context';

/**
 * The "Review" section: how propose mode reaches you. One toggle, "Notify on new
 * proposals" (a Notice each time an agent stages a change); proposals themselves are
 * reviewed inline in the editor and in the Pending changes view.
 */
export function renderReviewSection(containerEl: HTMLElement, ctx: SectionContext): void {
  const { plugin } = ctx;
  new Setting(containerEl)
    .setName('Review')
    .setHeading()
    .setDesc('Changes from propose-mode keys wait inline in the editor and in the pending changes view until you accept or reject them.');
  new Setting(containerEl)
    .setName('Notify on new proposals')
    .setDesc('Show a notice each time an agent proposes a change.')
    .addToggle((toggle) =>
      toggle.setValue(plugin.settings.proposals.notifyOnNew).onChange(async (value) => {
        plugin.settings.proposals.notifyOnNew = value;
        // Stamped, so a synced data.json merges it field by field (settings/field-times.ts).
        stampField('proposals', plugin.settings.proposals, 'notifyOnNew');
        await plugin.saveSettings();
      }),
    );
}
