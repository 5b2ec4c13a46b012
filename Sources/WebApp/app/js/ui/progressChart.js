// 乗下車駅数の推移 on 統計: the cumulative series of progress.js as an SVG made of DOM elements
// (the page's policy allows no inline style or script; presentation attributes and classes are
// elements' own). Each year is a bar of its completions, the busiest year half the height, as in
// the progress report; over them, the running total month by month. Each bar carries the
// report's numbers: data-year, data-count and data-running (its <title> reads as the report's,
// `2013: 5 / 12`), and the chart its last running total as data-total.

const SVG = 'http://www.w3.org/2000/svg';

/** The drawing's own units; the SVG scales to the screen's width. */
const BOX = { width: 340, height: 170, left: 40, right: 8, top: 10, bottom: 22 };

/** Year labels at most, so that they never overlap on a phone. */
const MAX_LABELS = 7;

/**
 * An SVG element with attributes.
 * @param {string} tag @param {Record<string, string | number>} [attrs] @param {Array<Element | string>} children
 * @returns {SVGElement}
 */
function svg(tag, attrs = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const child of children) el.append(child);
  return el;
}

/**
 * One decimal is enough for a drawing 340 units wide.
 * @param {number} v
 */
const f = (v) => String(Math.round(v * 10) / 10);

/**
 * The chart of a series; `label` names it for screen readers.
 * @param {import('../progress.js').ProgressSeries} series
 * @param {string} label
 * @returns {SVGElement}
 */
export function progressChart(series, label) {
  const { width, height, left, right, top, bottom } = BOX;
  const plotWidth = width - left - right, plotHeight = height - top - bottom;
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label, class: 'progress-svg', 'data-total': series.total });
  const baseline = top + plotHeight;
  root.append(
    svg('line', { class: 'axis', x1: left, y1: baseline, x2: width - right, y2: baseline }),
    svg('text', { class: 'axis-label', x: left - 4, y: top + 8, 'text-anchor': 'end' }, String(series.total)),
    svg('text', { class: 'axis-label', x: left - 4, y: baseline, 'text-anchor': 'end' }, '0'),
  );
  const months = series.months;
  if (months.length === 0) return root;
  const step = plotWidth / months.length;
  const busiest = Math.max(1, ...series.years.map((y) => y.count));
  const total = Math.max(1, series.total);
  const labelEvery = Math.max(1, Math.ceil(series.years.length / MAX_LABELS));
  // The running total at the end of each month, under the bars.
  const points = months.map((m, i) => `${f(left + (i + 1) * step)},${f(baseline - plotHeight * (m.running / total))}`);
  root.append(svg('polygon', { class: 'cumulative-area', points: [`${f(left)},${f(baseline)}`, ...points, `${f(left + months.length * step)},${f(baseline)}`].join(' ') }));
  series.years.forEach((y, i) => {
    const first = months.findIndex((m) => m.year === y.year);
    let last = first;
    while (last + 1 < months.length && months[last + 1].year === y.year) last++;
    const x = left + first * step, w = (last - first + 1) * step;
    const h = (plotHeight / 2) * (y.count / busiest);
    root.append(svg('rect', {
      class: 'year', x: f(x + w * 0.1), y: f(baseline - h), width: f(w * 0.8), height: f(h),
      'data-year': y.year, 'data-count': y.count, 'data-running': y.running,
    }, svg('title', {}, `${y.year}: ${y.count} / ${y.running}`)));
    if ((series.years.length - 1 - i) % labelEvery === 0) { // evenly, the last year always
      root.append(svg('text', { class: 'axis-label', x: f(x + w / 2), y: baseline + 15, 'text-anchor': 'middle' }, String(y.year)));
    }
  });
  root.append(svg('polyline', { class: 'cumulative', points: [`${f(left)},${f(baseline)}`, ...points].join(' ') }));
  return root;
}
