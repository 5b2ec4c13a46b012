// The progress report's map (Sources/LedgerViews/Report/ReportPage+Map.swift writes its data):
// every enabled line as an SVG `polyline.line` and every station as a `circle.station`
// (completed ones last, so they stay on top), then pan with a drag, zoom with the wheel, a double
// click or a pinch, and show the name, operator, lines, date and memo of every station at the
// nearest point under the pointer or a tap, completed ones first (a tap searches a wider radius:
// fingers are wide).
//
// A plain ES module with no global whose one import is mapCore.js, the arithmetic it shares with
// the phone app's map (Sources/WebApp/app/js/map.js). The report inlines mapCore.js, this file
// and report.js, in that order, in one module script with the import and export keywords taken
// out (ReportPage.inlineModules): a page opened from file:// cannot import another file.

import { stationsAt } from './mapCore.js';

const NS = 'http://www.w3.org/2000/svg';

/**
 * The map's data (ReportPage+Map.swift): `ops` operator names; `dates` labels by date code;
 * `none` the label of no date; `lines` [l_id, name, op, completed 0|1, [station indices]];
 * `st` [s_id, name, op, x, y, comp_date, memo] in map units (thousandths of a degree, x scaled
 * by cos 36°, y growing southwards).
 * @typedef {{ops: string[], dates: Record<string, string>, none: string,
 *   lines: Array<[number, string, number, number, number[]]>,
 *   st: Array<[number, string, number, number, number, number, string]>}} ReportMapData
 */

/**
 * Draws `data` into `svg` (its viewBox is the home view) and makes it pan, zoom and answer taps
 * in `tip`, placed inside `frame`.
 * @param {SVGSVGElement} svg
 * @param {HTMLElement} tip
 * @param {HTMLElement} frame
 * @param {ReportMapData} data
 */
export function drawReportMap(svg, tip, frame, data) {
  const st = data.st, lines = data.lines;
  let vb = (svg.getAttribute('viewBox') || '0 0 1 1').split(' ').map(Number);
  const home = vb.slice();
  /** @type {number[][]} lines through each station */
  const stLines = st.map(() => []);
  const gl = document.createElementNS(NS, 'g'), gs = document.createElementNS(NS, 'g');

  /**
   * Indices with the unflagged first, then by index.
   * @param {(i: number) => number} flag
   */
  const byDone = (flag) => (/** @type {number} */ a, /** @type {number} */ b) => flag(a) - flag(b) || a - b;

  lines.map((_, i) => i).sort(byDone((i) => lines[i][3])).forEach((i) => {
    const l = lines[i], p = document.createElementNS(NS, 'polyline');
    p.setAttribute('class', l[3] ? 'line completed' : 'line');
    p.setAttribute('data-line', String(l[0]));
    p.setAttribute('points', l[4].map((k) => { stLines[k].push(i); return st[k][3] + ',' + st[k][4]; }).join(' '));
    gl.appendChild(p);
  });
  st.map((_, i) => i).sort(byDone((i) => (st[i][5] > 0 ? 1 : 0))).forEach((i) => {
    const s = st[i], c = document.createElementNS(NS, 'circle');
    c.setAttribute('class', s[5] > 0 ? 'station completed' : 'station');
    c.setAttribute('data-station', String(s[0]));
    c.setAttribute('cx', String(s[3]));
    c.setAttribute('cy', String(s[4]));
    gs.appendChild(c);
  });
  svg.appendChild(gl);
  svg.appendChild(gs);

  const scale = () => Math.min((svg.clientWidth || 1) / vb[2], (svg.clientHeight || 1) / vb[3]);
  function apply() {
    svg.setAttribute('viewBox', vb.join(' '));
    const z = Math.sqrt(home[2] / vb[2]);
    svg.style.setProperty('--r', (Math.min(6, 0.9 * z + 0.4) / scale()).toFixed(3) + 'px');
  }
  /**
   * Screen to map units.
   * @param {number} x
   * @param {number} y
   */
  function toMap(x, y) {
    const p = svg.createSVGPoint();
    p.x = x;
    p.y = y;
    const ctm = svg.getScreenCTM();
    return ctm ? p.matrixTransform(ctm.inverse()) : p;
  }
  /** @param {{x: number, y: number}} m @param {number} f */
  function zoom(m, f) {
    const w = vb[2] * f;
    if (w < home[2] / 300 || w > home[2] * 2) return;
    vb = [m.x - (m.x - vb[0]) * f, m.y - (m.y - vb[1]) * f, vb[2] * f, vb[3] * f];
    apply();
  }
  /**
   * Fills one station's block with lines of text, the first in bold: memos and names stay text,
   * never markup.
   * @param {HTMLElement} block
   * @param {string[]} texts
   */
  function fillTip(block, texts) {
    texts.forEach((text, k) => {
      if (k > 0) block.append(document.createElement('br'));
      if (k === 0) {
        const bold = document.createElement('b');
        bold.textContent = text;
        block.append(bold);
      } else {
        block.append(text);
      }
    });
  }

  let pinned = false;
  const hide = () => { tip.hidden = true; };
  const points = { xs: st.map((s) => s[3]), ys: st.map((s) => s[4]), completed: st.map((s) => s[5] > 0) };
  /**
   * The tip for the stations at one point (stationsAt: completed first), one block each.
   * @param {number[]} found @param {number} cx @param {number} cy
   */
  function show(found, cx, cy) {
    tip.replaceChildren(...found.map((i) => {
      const s = st[i], names = stLines[i].map((k) => lines[k][1]);
      const block = document.createElement('div');
      block.className = 'tip-station';
      block.dataset.station = String(s[0]);
      fillTip(block, [String(s[1]), String(data.ops[s[2]]), ...(names.length ? [names.join('、')] : []),
        String(s[5] > 0 ? data.dates[s[5]] : data.none), ...(s[6] ? [String(s[6])] : [])]);
      return block;
    }));
    tip.hidden = false;
    const r = frame.getBoundingClientRect();
    let x = cx - r.left + 12, y = cy - r.top + 12;
    if (x + tip.offsetWidth > r.width) x = Math.max(0, cx - r.left - tip.offsetWidth - 12);
    if (y + tip.offsetHeight > r.height) y = Math.max(0, cy - r.top - tip.offsetHeight - 12);
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  }
  /**
   * The stations at the point nearest a screen point within `px` pixels.
   * @param {number} cx
   * @param {number} cy
   * @param {number} px
   * @param {boolean} sticky
   */
  function pick(cx, cy, px, sticky) {
    const m = toMap(cx, cy), found = stationsAt(points, m.x, m.y, px / scale());
    if (sticky) pinned = found.length > 0;
    if (found.length > 0) show(found, cx, cy);
    else if (sticky || !pinned) hide();
  }

  /** @type {Record<string, {x: number, y: number}>} */
  const ptrs = {};
  let moved = 0;
  svg.addEventListener('pointerdown', (e) => {
    ptrs[e.pointerId] = { x: e.clientX, y: e.clientY };
    moved = 0;
    try { svg.setPointerCapture(e.pointerId); } catch (_) { /* a pointer that is already gone */ }
  });
  svg.addEventListener('pointermove', (e) => {
    const p = ptrs[e.pointerId];
    if (!p) {
      if (!pinned && e.pointerType === 'mouse') pick(e.clientX, e.clientY, 8, false);
      return;
    }
    const ids = Object.keys(ptrs);
    if (ids.length === 1) {
      const dx = e.clientX - p.x, dy = e.clientY - p.y, s = scale();
      moved += Math.abs(dx) + Math.abs(dy);
      vb[0] -= dx / s;
      vb[1] -= dy / s;
      apply();
    } else if (ids.length === 2) {
      const o = ptrs[ids[0] === String(e.pointerId) ? ids[1] : ids[0]];
      moved += 100;
      const d0 = Math.hypot(p.x - o.x, p.y - o.y), d1 = Math.hypot(e.clientX - o.x, e.clientY - o.y);
      if (d0 > 0 && d1 > 0) zoom(toMap((e.clientX + o.x) / 2, (e.clientY + o.y) / 2), d0 / d1);
    }
    p.x = e.clientX;
    p.y = e.clientY;
  });
  svg.addEventListener('pointerup', (e) => {
    if (ptrs[e.pointerId] && Object.keys(ptrs).length === 1 && moved < 6) {
      pick(e.clientX, e.clientY, e.pointerType === 'mouse' ? 10 : 20, true);
    }
    delete ptrs[e.pointerId];
  });
  svg.addEventListener('pointercancel', (e) => { delete ptrs[e.pointerId]; });
  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    zoom(toMap(e.clientX, e.clientY), Math.pow(1.0015, e.deltaY));
  }, { passive: false });
  svg.addEventListener('dblclick', (e) => { zoom(toMap(e.clientX, e.clientY), 0.5); });
  window.addEventListener('resize', apply);
  apply();
}
