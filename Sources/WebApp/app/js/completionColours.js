// The colours of completion, as the original apps show them: 済 (completed) green, 未 (not
// completed) red, on the map's pins, the lists' marks and the statistics' bars. The canvas draws
// with these values; app.css states the same two as --done and --rest (Tests/WebApp checks that
// they agree).
//
// A point several stations share (東京, 新宿, 小田原 of several operators) is one pin: green when
// every station there is completed, red when none is, half and half when some are.

export const COMPLETION_COLOURS = {
  done: '#2e9d4f',
  doneDark: '#1e6b37',
  rest: '#d3302f',
  restDark: '#8e1b1a',
};

/** @typedef {'all' | 'some' | 'none'} PointState */

/**
 * Whether all, some or none of the stations at a point are completed.
 * @param {number} completed how many of them are
 * @param {number} total how many stations share the point (≥ 1)
 * @returns {PointState}
 */
export function pointState(completed, total) {
  if (completed <= 0) return 'none';
  return completed >= total ? 'all' : 'some';
}

/**
 * The fills of a pin, left half then right half, and its outline.
 * @param {PointState} state
 * @returns {{left: string, right: string, stroke: string}}
 */
export function pinColours(state) {
  const c = COMPLETION_COLOURS;
  if (state === 'all') return { left: c.done, right: c.done, stroke: c.doneDark };
  if (state === 'none') return { left: c.rest, right: c.rest, stroke: c.restDark };
  return { left: c.done, right: c.rest, stroke: '#1d2630' };
}
