// 「進捗を共有」: the progress card (progressCard.js) drawn on a canvas, made a PNG, and handed to
// the phone's share sheet (the Web Share API with files) where the browser can share files;
// elsewhere it is downloaded (an <a download>). Nothing leaves the device but through the
// person's own choice in the share sheet.

import { CARD_SIZE, cardFileName, cardLayout, leadingPrefectures, mapDots } from '../progressCard.js';
import { completedGroups } from '../milestones.js';
import { label, todayCode } from '../dates.js';
import { formatCount, language, t } from '../i18n.js';
import { h } from './dom.js';

/** @typedef {import('../catalog.js').Catalog} Catalog */
/** @typedef {import('../progressCard.js').Rect} Rect */

const FONT = 'system-ui, -apple-system, "Hiragino Sans", "Noto Sans CJK JP", sans-serif';
const COLOURS = { background: '#ffffff', ink: '#1d2630', sub: '#5b6673', rest: '#d5dbe1', done: '#2e9d4f', bar: '#e3e7ec', accent: '#d3302f' };

/**
 * Draws the card of the current records on a new canvas.
 * @param {Catalog} catalog @param {(id: number) => number} compDateOf @param {number} now Unix ms
 * @returns {HTMLCanvasElement}
 */
export function drawProgressCard(catalog, compDateOf, now) {
  const canvas = document.createElement('canvas');
  canvas.width = CARD_SIZE;
  canvas.height = CARD_SIZE;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser cannot draw on a canvas');
  const layout = cardLayout(CARD_SIZE, CARD_SIZE);
  ctx.fillStyle = COLOURS.background;
  ctx.fillRect(0, 0, layout.width, layout.height);
  ctx.textBaseline = 'top';

  const stations = catalog.enabledStations;
  const completed = stations.filter((s) => compDateOf(s.id) > 0).length;
  const permille = stations.length === 0 ? 0 : Math.floor((completed * 1000) / stations.length);
  text(ctx, t('card.title'), layout.title, 44, COLOURS.accent, 'bold');
  text(ctx, t('card.totals', formatCount(completed), formatCount(stations.length), `${Math.floor(permille / 10)}.${permille % 10}%`),
    { ...layout.totals, height: layout.totals.height * 0.6 }, 64, COLOURS.ink, 'bold');
  const groups = completedGroups(catalog, compDateOf);
  const count = (/** @type {string} */ kind) => groups.filter((g) => g.kind === kind).length;
  text(ctx, t('card.completed', count('line'), count('operator'), count('prefecture')),
    { ...layout.totals, y: layout.totals.y + layout.totals.height * 0.62, height: layout.totals.height * 0.38 }, 32, COLOURS.sub, '');

  const dots = mapDots(catalog, compDateOf, inset(layout.map, 8));
  if (dots.inset) {
    ctx.strokeStyle = COLOURS.rest;
    ctx.lineWidth = 2;
    ctx.strokeRect(dots.inset.x, dots.inset.y, dots.inset.width, dots.inset.height);
  }
  for (const done of [0, 1]) {
    ctx.fillStyle = done ? COLOURS.done : COLOURS.rest;
    const r = done ? 3.2 : 2;
    for (let i = 0; i < dots.xs.length; i++) {
      if (dots.done[i] !== done) continue;
      ctx.beginPath();
      ctx.arc(dots.xs[i], dots.ys[i], r, 0, Math.PI * 2);
      ctx.fill();
    }
  }

  const box = layout.prefectures;
  text(ctx, t('card.leading'), { ...box, height: 40 }, 30, COLOURS.sub, 'bold');
  const rowHeight = 62;
  leadingPrefectures(catalog, compDateOf).forEach((p, i) => {
    const y = box.y + 56 + i * rowHeight;
    if (y + rowHeight > box.y + box.height) return;
    text(ctx, p.name, { x: box.x, y, width: box.width * 0.6, height: 34 }, 30, COLOURS.ink, '');
    ctx.textAlign = 'right';
    text(ctx, `${Math.floor(p.permille / 10)}.${p.permille % 10}%`, { x: box.x + box.width * 0.6, y, width: box.width * 0.4, height: 34 }, 30, COLOURS.ink, 'bold');
    ctx.textAlign = 'left';
    ctx.fillStyle = COLOURS.bar;
    ctx.fillRect(box.x, y + 38, box.width, 10);
    ctx.fillStyle = COLOURS.done;
    ctx.fillRect(box.x, y + 38, box.width * (p.permille / 1000), 10);
  });

  text(ctx, t('card.asOf', label(todayCode(now), language())), layout.footer, 28, COLOURS.sub, '');
  return canvas;
}

/**
 * The card of the current records as a PNG file, or null when the browser made no image.
 * @param {Catalog} catalog @param {(id: number) => number} compDateOf @param {number} now
 * @returns {Promise<File | null>}
 */
export async function progressCardFile(catalog, compDateOf, now) {
  const canvas = drawProgressCard(catalog, compDateOf, now);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  return blob instanceof Blob ? new File([blob], cardFileName(todayCode(now)), { type: 'image/png' }) : null;
}

/**
 * Shares a card where the browser shares files, else downloads it; the answer is one sentence
 * (empty when the person closed the share sheet). Call it in the tap's own task where it can be:
 * Safari shares only while the tap is fresh.
 * @param {File} file
 * @returns {Promise<{ok: boolean, message: string}>}
 */
export async function shareCardFile(file) {
  if (typeof navigator.canShare === 'function' && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: t('card.title') });
      return { ok: true, message: t('share.shared') };
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return { ok: true, message: '' };
      // Sharing refused (the tap no longer fresh, a policy): the download still works.
    }
  }
  const url = URL.createObjectURL(file);
  const a = h('a', { attrs: { href: url, download: file.name } });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { ok: true, message: t('share.downloaded', file.name) };
}

/**
 * A line of text fitted into a box: its font shrinks until the text fits the width.
 * @param {CanvasRenderingContext2D} ctx @param {string} value @param {Rect} box
 * @param {number} size @param {string} colour @param {string} weight
 */
function text(ctx, value, box, size, colour, weight) {
  let px = Math.min(size, box.height);
  ctx.font = `${weight} ${px}px ${FONT}`;
  while (px > 10 && ctx.measureText(value).width > box.width) {
    px -= 2;
    ctx.font = `${weight} ${px}px ${FONT}`;
  }
  ctx.fillStyle = colour;
  const x = ctx.textAlign === 'right' ? box.x + box.width : box.x;
  ctx.fillText(value, x, box.y + (box.height - px) / 2);
}

/** @param {Rect} r @param {number} by @returns {Rect} */
function inset(r, by) {
  return { x: r.x + by, y: r.y + by, width: r.width - 2 * by, height: r.height - 2 * by };
}
