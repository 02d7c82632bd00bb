import { Setting } from 'obsidian';
import { examplePreset } from '../../../ai/providers/presets';
import type { SemanticStatus } from '../../../search/semantic/semantic-index';
import { stampField, type FieldOf } from '../../../settings/field-times';
import type { SectionContext } from '../tab-context';

/**
 * The semantic search rows of the AI provider section: "Embedding model" (with the provider's
 * example as placeholder), "Index for semantic search" (off by default) and "Rebuild", whose
 * description is the index's status. With Anthropic, which has no embeddings endpoint, the
 * model row says so and the toggle and Rebuild are disabled. A change stamps its field (`ai.fieldTimes`:
 * `embeddingModel`, `semanticIndex`).
 */
export function renderSemanticSettings(containerEl: HTMLElement, ctx: SectionContext): void {
  const { plugin } = ctx;
  const ai = plugin.settings.ai;
  const noEndpoint = ai.provider === 'anthropic';
  const changed = async (field: FieldOf<'ai'>): Promise<void> => {
    // Stamped as the AI provider section's changes are (ai-section.ts): the semantic index sends note text out.
    stampField('ai', ai, field);
    await plugin.saveSettings();
    await plugin.ai.settingsChanged();
    void plugin.semantic.refresh();
  };
  new Setting(containerEl)
    .setName('Embedding model')
    .setDesc(
      noEndpoint
        ? 'Anthropic has no embeddings endpoint: semantic search is unavailable and hybrid search is lexical only. Use an OpenAI-compatible provider (e.g. Ollama) for it.'
        : "The provider's /embeddings model for semantic search, e.g. nomic-embed-text on Ollama (ollama pull nomic-embed-text) or text-embedding-3-small on OpenAI.",
    )
    .addText((t) => {
      t.setPlaceholder(noEndpoint ? 'none' : `e.g. ${examplePreset(ai.provider).exampleEmbeddingModel}`)
        .setValue(ai.embeddingModel)
        .setDisabled(noEndpoint)
        .onChange(async (v) => {
          ai.embeddingModel = v.trim();
          await changed('embeddingModel');
        });
    });
  new Setting(containerEl)
    .setName('Index for semantic search')
    .setDesc(
      'Sends the text of every note agents may read (never private or quarantined ones) to the embedding model and keeps the vectors in the plugin folder. With a remote provider that text leaves this computer.',
    )
    .addToggle((t) =>
      t
        .setValue(ai.semanticIndex)
        .setDisabled(noEndpoint)
        .onChange(async (v) => {
          ai.semanticIndex = v;
          await changed('semanticIndex');
          ctx.redisplay();
        }),
    );
  new Setting(containerEl)
    .setName('Rebuild semantic index')
    .setDesc(statusLine(plugin.semantic.current))
    .addButton((b) =>
      b
        .setButtonText('Rebuild')
        .setDisabled(noEndpoint || !ai.semanticIndex)
        .onClick(() => {
          void plugin.semantic.rebuild();
          ctx.redisplay();
        }),
    );
}

/** One sentence on where the semantic index stands. */
function statusLine(status: SemanticStatus): string {
  switch (status.state) {
    case 'ready':
      return `Ready: ${status.chunks.toLocaleString('en-US')} sections of ${status.notes.toLocaleString('en-US')} notes embedded.`;
    case 'building':
      return `Building: ${status.indexed.toLocaleString('en-US')} of ${status.total.toLocaleString('en-US')} notes.`;
    case 'paused':
      return `Paused: ${status.reason}.`;
    case 'off':
      return `Off: ${status.reason}.`;
  }
}
