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
 * With a DOM (jsdom, a browser page) the notice is in the page (`document.body`) from the
 * moment it is made until it is hidden, by `hide()` or by a click on it, as Obsidian shows a
 * notice and takes it out of the page when the user clicks it away: so `messageEl.isConnected`
 * tells a notice still shown from a dismissed one, as plugins check it. A duration is recorded,
 * not timed (a test hides a timed notice itself).
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
    this.containerEl.appendChild(this.messageEl);
    this.record = { message: '', duration };
    Notice.shown.push(this.record);
    this.setMessage(message);
    if (typeof document !== 'undefined') {
      document.body.appendChild(this.containerEl);
      this.messageEl.addEventListener('click', () => this.hide());
    }
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
    this.containerEl.detach();
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
