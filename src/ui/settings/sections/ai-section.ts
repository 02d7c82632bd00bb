import { Setting, type TextComponent } from 'obsidian';
import { AI_PROVIDER_PRESETS, examplePreset } from '../../../ai/providers/presets';
import { AI_API_KEY_SECRET_ID } from '../../../ai/secret-id';
import type { AiProviderType } from '../../../ai/types';
import { stampField, type FieldOf } from '../../../settings/field-times';
import { renderSemanticSettings } from './semantic-section';
import type { SectionContext } from '../tab-context';

const PROVIDER_LABELS: Record<AiProviderType, string> = {
  'openai-compatible': 'OpenAI-compatible (Ollama, LM Studio, OpenAI, OpenRouter, vLLM)',
  anthropic: 'Anthropic Messages',
};

/**
 * The "AI provider" section: enabled, allow remote, a preset that fills type and base URL,
 * provider type, base URL, API key (kept in `app.secretStorage` under
 * {@link AI_API_KEY_SECRET_ID}, never in data.json), model, the semantic search rows
 * (semantic-section.ts), token usage with Reset, and a
 * Test button that first saves every field as typed, then sends the test prompt through
 * `AiService.testConnection()` and shows the reply or the full error inline. Every change stamps
 * the field it changes (`ai.fieldTimes`; provider type, base URL and model are one field, `endpoint`:
 * settings/field-times.ts), so a synced data.json's older value never replaces it; Reset and the
 * token counts do not.
 */
export function renderAiSection(containerEl: HTMLElement, ctx: SectionContext): void {
  const { plugin, app } = ctx;
  const ai = plugin.settings.ai;
  const changed = async (field: FieldOf<'ai'>): Promise<void> => {
    // Stamped, so an older data.json synced in later does not turn AI or remote providers back on or point them elsewhere
    // (ui/settings/external-change.ts). Only the user's changes stamp: the plugin's own usage saves (main.ts) never do.
    stampField('ai', ai, field);
    await plugin.saveSettings();
    await plugin.ai.settingsChanged();
  };
  /** A change that can switch the semantic index on or off (AI toggles, provider, base URL). */
  const changedReach = async (field: FieldOf<'ai'>): Promise<void> => {
    await changed(field);
    void plugin.semantic.refresh();
  };
  new Setting(containerEl).setName('AI provider').setHeading().setDesc("The model other plugins reach through Vault MCP's chat() API.");

  new Setting(containerEl)
    .setName('Enable AI')
    .setDesc('Off: every chat() call is refused.')
    .addToggle((t) =>
      t.setValue(ai.enabled).onChange(async (v) => {
        ai.enabled = v;
        await changedReach('enabled');
        ctx.redisplay();
      }),
    );
  new Setting(containerEl)
    .setName('Allow remote providers')
    .setDesc('Off: only a provider on this computer (localhost) is used, so note text never leaves it.')
    .addToggle((t) =>
      t.setValue(ai.allowRemote).onChange(async (v) => {
        ai.allowRemote = v;
        await changedReach('allowRemote');
        ctx.redisplay();
      }),
    );

  new Setting(containerEl)
    .setName('Preset')
    .setDesc('Fills in the provider type and base URL.')
    .addDropdown((d) => {
      d.addOption('', 'Choose…');
      for (const [i, p] of AI_PROVIDER_PRESETS.entries()) d.addOption(String(i), p.label);
      d.setValue('').onChange(async (value) => {
        const preset = AI_PROVIDER_PRESETS[Number(value)];
        if (value === '' || !preset) return;
        ai.provider = preset.provider;
        ai.baseUrl = preset.baseUrl;
        await changedReach('endpoint');
        ctx.redisplay();
      });
    });

  let baseUrl!: TextComponent;
  let model!: TextComponent;
  let apiKey!: TextComponent;
  new Setting(containerEl).setName('Provider type').addDropdown((d) =>
    d
      .addOptions(PROVIDER_LABELS)
      .setValue(ai.provider)
      .onChange(async (v) => {
        ai.provider = v as AiProviderType;
        await changedReach('endpoint');
        ctx.redisplay();
      }),
  );
  new Setting(containerEl)
    .setName('Base URL')
    .setDesc('OpenAI-compatible servers end in /v1.')
    .addText((t) => {
      baseUrl = t
        .setPlaceholder(examplePreset(ai.provider).baseUrl)
        .setValue(ai.baseUrl)
        .onChange(async (v) => {
          ai.baseUrl = v.trim();
          await changed('endpoint');
        });
      t.inputEl.addClass('vault-mcp-wide-input');
    });
  new Setting(containerEl)
    .setName('API key')
    .setDesc("Stored in Obsidian's secret storage on this device, not in data.json. Local servers usually need none.")
    .addText((t) => {
      apiKey = t
        .setPlaceholder('None')
        .setValue(app.secretStorage.getSecret(AI_API_KEY_SECRET_ID) ?? '')
        .onChange((v) => {
          app.secretStorage.setSecret(AI_API_KEY_SECRET_ID, v.trim());
        });
      t.inputEl.type = 'password';
      t.inputEl.setAttr('autocomplete', 'off');
    });
  new Setting(containerEl).setName('Model').addText((t) => {
    model = t
      .setPlaceholder(`e.g. ${examplePreset(ai.provider).exampleModel}`)
      .setValue(ai.model)
      .onChange(async (v) => {
        ai.model = v.trim();
        await changed('endpoint');
      });
  });
  renderSemanticSettings(containerEl, ctx);

  const usage = plugin.ai.getUsage();
  new Setting(containerEl)
    .setName('Usage')
    .setDesc(
      `${usage.inputTokens.toLocaleString('en-US')} input and ${usage.outputTokens.toLocaleString('en-US')} output chat tokens, ` +
        `${usage.embeddingTokens.toLocaleString('en-US')} embedding tokens since the last reset (this provider and base URL).`,
    )
    .addButton((b) =>
      b.setButtonText('Reset').onClick(async () => {
        await plugin.ai.resetUsage();
        ctx.redisplay();
      }),
    );

  const availability = plugin.ai.chatAvailability();
  const test = new Setting(containerEl)
    .setName('Test')
    .setDesc(
      availability.ready
        ? `Ready: ${availability.model} via ${availability.provider} (${availability.classification}).`
        : availability.reason,
    );
  const resultEl = containerEl.createDiv({ cls: 'vault-mcp-test-result', attr: { 'aria-live': 'polite' } });
  test.addButton((b) =>
    b.setButtonText('Send test prompt').onClick(async () => {
      const typed = { baseUrl: baseUrl.getValue().trim(), model: model.getValue().trim() };
      app.secretStorage.setSecret(AI_API_KEY_SECRET_ID, apiKey.getValue().trim());
      // Fields already saved as typed are no change: a test alone must not make this device's block the newer one.
      if (typed.baseUrl !== ai.baseUrl || typed.model !== ai.model) {
        Object.assign(ai, typed);
        await changed('endpoint');
      }
      resultEl.removeClass('mod-error', 'mod-success');
      resultEl.setText('Waiting for the provider…');
      b.setDisabled(true);
      try {
        const result = await plugin.ai.testConnection();
        resultEl.addClass(result.ok ? 'mod-success' : 'mod-error');
        resultEl.setText(result.ok ? `Reply: ${result.text}` : `${result.code}: ${result.message}`);
      } catch (error) {
        resultEl.addClass('mod-error');
        resultEl.setText(`Unexpected error: ${(error as Error).stack ?? String(error)}`);
      } finally {
        b.setDisabled(false);
      }
    }),
  );
}
