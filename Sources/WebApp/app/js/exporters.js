// Files the 同期 screen exports, byte for byte as the CLI writes them:
// - this device's events as `oritsubushi replay --format jsonl` prints them (EventFormatter /
//   EventLineWriter: keys device, device_name, seq, hlc, time, station, comp_date, memo, origin;
//   comp_date and memo only when the event sets them; hlc as a bare number);
// - the completions as the oritsubushi-tsv that `oritsubushi import oritsubushi-tsv` reads
//   (Schemas/import-export.md: s_id⇥comp_date⇥update_date⇥memo⏎ per station with events, in
//   s_id order, memo with \ written \\ and newline \n).

/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */

/**
 * JSONText.quoted: ", \, newline, CR and tab escaped, other control characters as \u00XX,
 * everything else as it is.
 * @param {string} text
 */
export function quoteJson(text) {
  let out = '"';
  for (const ch of text) {
    const c = /** @type {number} */ (ch.codePointAt(0));
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

/**
 * ISO 8601 UTC with milliseconds, as HybridTimestamp.description.
 * @param {bigint} hlc
 */
export function hlcTime(hlc) {
  return new Date(Number(hlc >> 16n)).toISOString();
}

/**
 * One replay line of a station edit (no trailing newline).
 * @param {LedgerEvent} e @param {string} deviceName
 */
export function replayLine(e, deviceName) {
  let out = `{"device":"${e.device}","device_name":${quoteJson(deviceName)},"seq":${e.seq},"hlc":${e.hlc},"time":"${hlcTime(e.hlc)}","station":${e.station}`;
  if (e.compDate !== null && e.compDate !== undefined) out += `,"comp_date":${e.compDate}`;
  if (e.memo !== null && e.memo !== undefined) out += `,"memo":${quoteJson(e.memo)}`;
  return out + `,"origin":"${e.origin ?? 'user'}"}`;
}

/**
 * This device's station edits in seq order, one replay line each.
 * @param {Ledger} ledger
 */
export function deviceEventsJsonl(ledger) {
  const name = ledger.deviceName(ledger.device);
  return (ledger.byDevice.get(ledger.device) ?? [])
    .filter((e) => e.kind === 'station_edit')
    .map((e) => replayLine(e, name) + '\n')
    .join('');
}

/**
 * OritsubushiTSV.escape.
 * @param {string} memo
 */
export function escapeTsvMemo(memo) {
  return memo.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/**
 * The completions of every station with events, in s_id order (export --format tsv).
 * @param {Ledger} ledger
 */
export function completionsTsv(ledger) {
  return ledger.fold.rows()
    .map((r) => `${r.station}\t${r.compDate}\t${ledger.fold.updateSeconds(r.station)}\t${escapeTsvMemo(r.memo)}\n`)
    .join('');
}
