// 同期's 元のアプリの記録を取り込む: the person picks an oritsubushi-tsv file (the original apps'
// sync upload, or this app's own TSV export); the app reads it as the CLI's `import` does
// (tsvImport.js), shows the dry run (how many stations it would record, each refused line with
// its number and reason, each station with what it would record), and 取り込む records it in one
// strict commit (App.importRows), saying how many stations were recorded. The listing follows
// the replica: a sync that arrives meanwhile changes what it shows, and 取り込む plans again at
// the commit, so it never records what the listing did not offer as a change.

import { parseTsv } from '../tsvImport.js';
import { importOptions, previewImport } from '../ledgerImport.js';
import { draftText, noteTexts, refusedLineText, summaryText } from '../importReport.js';
import { formatCount, t } from '../i18n.js';
import { byId, h } from './dom.js';
import { ActivationGuard } from './activationGuard.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../tsvImport.js').TsvRow} TsvRow */
/** @typedef {import('../tsvImport.js').RefusedLine} RefusedLine */

/** How many refused lines, and stations to record, the listing names before 「ほかN件」. */
export const LISTED = 100;

export class ImportPanel {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
    this.file = byId('import-file', HTMLInputElement);
    this.preview = byId('import-preview');
    this.apply = byId('import-apply', HTMLButtonElement);
    this.result = byId('import-result');
    /** The file read, waiting for 取り込む. */
    /** @type {{rows: TsvRow[], refused: RefusedLine[]} | null} */
    this.pending = null;
    this.writing = false;
    this.guard = new ActivationGuard(() => this.enable());
    this.file.addEventListener('change', () => void this.read());
    this.apply.addEventListener('click', () => void this.record());
    app.on('change', () => { if (this.pending && !this.writing) this.show(); });
    app.on('catalog', () => { if (this.pending && !this.writing) this.show(); });
  }

  /** Reads the chosen file and shows what importing it would record. */
  async read() {
    const file = this.file.files?.[0];
    this.result.textContent = '';
    this.pending = null;
    if (!file) { this.show(); return; }
    try {
      this.pending = parseTsv(new Uint8Array(await file.arrayBuffer()));
    } catch {
      this.say(t('import.unreadable'), false);
    }
    this.show();
  }

  /** The dry run of the file read, against the replica as it is now. */
  show() {
    const catalog = this.app.catalog;
    const pending = this.pending;
    this.apply.hidden = true;
    this.preview.hidden = !pending;
    if (!pending) { this.preview.replaceChildren(); return; }
    if (!catalog) {
      this.preview.replaceChildren(h('p', { text: t('import.noCatalog') }));
      return;
    }
    const plan = previewImport(this.app.replica, pending.rows, importOptions(catalog, this.app.now()));
    const refused = [...pending.refused, ...plan.refused].sort((a, b) => a.line - b.line);
    /** @type {HTMLElement[]} */
    const shown = [h('p', { text: summaryText(plan, refused), data: { testid: 'import-summary' } })];
    for (const note of noteTexts(plan)) shown.push(h('p', { class: 'sub', text: note, data: { testid: 'import-note' } }));
    if (refused.length > 0) {
      shown.push(h('h3', { text: t('import.refusedTitle') }), list('ol', 'import-refused', refused.slice(0, LISTED)
        .map((r) => h('li', { text: refusedLineText(r), data: { line: String(r.line) } })), refused.length));
    }
    if (plan.drafts.length > 0) {
      shown.push(h('h3', { text: t('import.recordTitle') }), list('ul', 'import-records', plan.drafts.slice(0, LISTED)
        .map((d) => h('li', { text: draftText(d, catalog), data: { station: String(d.station), line: String(d.line) } })), plan.drafts.length));
    }
    this.preview.replaceChildren(...shown);
    this.apply.hidden = plan.drafts.length === 0;
    this.guard.arm();
  }

  /** 取り込む: records the file's rows (planned again at the commit) and says how many stations. */
  async record() {
    const pending = this.pending;
    if (!pending || this.writing || !this.guard.settled()) return;
    this.writing = true;
    this.enable();
    try {
      const answer = await this.app.importRows(pending.rows, pending.refused.length);
      this.say(answer.message, answer.ok);
      if (answer.ok) {
        this.pending = null;
        this.file.value = '';
        this.show();
      }
    } finally {
      this.writing = false;
      this.enable();
    }
  }

  enable() {
    this.apply.disabled = this.writing || !this.guard.settled();
  }

  /** @param {string} message @param {boolean} ok */
  say(message, ok) {
    this.result.textContent = message;
    this.result.classList.toggle('bad', !ok);
  }
}

/**
 * A list of the first items, and 「ほかN件」 for the rest.
 * @param {'ol' | 'ul'} tag @param {string} testid @param {HTMLLIElement[]} items @param {number} total
 */
function list(tag, testid, items, total) {
  const more = total - items.length;
  return h(tag, { data: { testid } }, ...items, more > 0 ? h('li', { class: 'sub', text: t('import.more', formatCount(more)) }) : null);
}
