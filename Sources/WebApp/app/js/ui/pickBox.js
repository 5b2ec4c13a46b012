// The checkbox of a list row that picks its station for まとめて記録 (stationPicks.js). A tap on
// it picks or drops the station and nothing else: the row's own tap (opening the station,
// choosing it under 現在地) is not triggered.

import { t } from '../i18n.js';
import { h } from './dom.js';

/**
 * A row's checkbox, ticked when the station is picked.
 * @param {import('../stationPicks.js').StationPicks} picks
 * @param {number} station
 * @param {number} shownDate the date the row shows
 * @param {string} name the station's name, for the box's label
 * @param {() => void} changed called after the person ticked or unticked it
 */
export function pickBox(picks, station, shownDate, name, changed) {
  const box = h('input', { class: 'pick', data: { testid: 'station-check', station: String(station) },
    attrs: { type: 'checkbox', 'aria-label': t('picks.check', name) } });
  box.checked = picks.has(station);
  box.addEventListener('click', (e) => e.stopPropagation());
  box.addEventListener('change', () => {
    picks.set(station, shownDate, box.checked);
    changed();
  });
  return box;
}
