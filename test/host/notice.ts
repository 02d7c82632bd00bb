import type * as O from 'obsidian';
import { createHostElement } from './dom';

/** One notice shown by the host: its text and duration in ms (undefined = Obsidian's default). */
export interface NoticeRecord {
  message: string;
  duration: number | undefined;
}

/**
 * Obsidian's `Notice` (obsidian.d.ts). The host records every notice in `Notice.shown` (for
 * tests) and prints it with console.log outside Jest. `setMessage` updates the record.
 */
export class Notice implements O.Notice {
  /** Host: every notice created since the last `Notice.clear()`, oldest first. */
  static shown: NoticeRecord[] = [];
  noticeEl: HTMLElement;
  containerEl: HTMLElement;
  messageEl: HTMLElement;
  private readonly record: NoticeRecord;

  /** Shows `message` (a DocumentFragment is recorded by its text) for `duration` ms. */
  constructor(message: string | DocumentFragment, duration?: number) {
    this.containerEl = createHostElement('div', 'notice-container');
    this.messageEl = createHostElement('div', 'notice');
    this.noticeEl = this.messageEl;
    this.record = { message: '', duration };
    Notice.shown.push(this.record);
    this.setMessage(message);
  }

  setMessage(message: string | DocumentFragment): this {
    const text = typeof message === 'string' ? message : (message.textContent ?? '');
    this.record.message = text;
    this.messageEl.setText(text);
    if (process.env.JEST_WORKER_ID === undefined) console.log(`[notice] ${text}`);
    return this;
  }

  hide(): void {
    this.containerEl.hide();
  }

  /** Host: the recorded messages, oldest first. */
  static messages(): string[] {
    return Notice.shown.map((n) => n.message);
  }

  /** Host: forgets recorded notices. */
  static clear(): void {
    Notice.shown = [];
  }
}
