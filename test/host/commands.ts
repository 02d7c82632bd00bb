import type * as O from 'obsidian';
import type { Workspace } from './workspace/workspace';

/**
 * The host's command registry (Obsidian's internal `app.commands`): what plugins add with
 * `addCommand`, keyed by full id (`<plugin-id>:<command-id>`), and a way for tests to run them.
 */
export class HostCommands {
  /** Every registered command by full id. */
  readonly commands: Record<string, O.Command> = {};

  /** Creates the registry; editor callbacks get the workspace's active editor and view. */
  constructor(private readonly workspace: Workspace) {}

  /** Registers a command; throws when the id is taken. */
  addCommand(command: O.Command): void {
    if (this.commands[command.id]) throw new Error(`Command "${command.id}" is already registered.`);
    this.commands[command.id] = command;
  }

  /** Removes a command by full id (no-op if absent). */
  removeCommand(id: string): void {
    delete this.commands[id];
  }

  /**
   * Runs a command like the command palette: `checkCallback`/`editorCheckCallback` are asked
   * first (checking = true) and the command runs only if they return true; editor callbacks
   * need an open note. Returns whether the command ran; throws for an unknown id.
   */
  executeCommandById(id: string): boolean {
    const cmd = this.commands[id];
    if (!cmd) throw new Error(`Unknown command "${id}"; registered: ${Object.keys(this.commands).join(', ') || 'none'}.`);
    const view = this.workspace.activeEditor;
    const editor = view?.editor as unknown as O.Editor | undefined;
    const ctx = view as unknown as O.MarkdownView;
    if (cmd.editorCheckCallback) {
      if (!editor || !cmd.editorCheckCallback(true, editor, ctx)) return false;
      cmd.editorCheckCallback(false, editor, ctx);
      return true;
    }
    if (cmd.editorCallback) {
      if (!editor) return false;
      void cmd.editorCallback(editor, ctx);
      return true;
    }
    if (cmd.checkCallback) {
      if (!cmd.checkCallback(true)) return false;
      cmd.checkCallback(false);
      return true;
    }
    if (cmd.callback) {
      void cmd.callback();
      return true;
    }
    return false;
  }
}
