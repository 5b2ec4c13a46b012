// 地図's 「現在位置」: the marker with its accuracy circle over the canvas, and the locate button
// (「現在位置に移動」) that centres the map there. The watch (positionWatch.js) runs while the map is
// visible; without permission or a fix the button says why in one sentence.

import { PositionWatch } from '../positionWatch.js';
import { project, toScreen } from '../mapCore.js';
import { METRES_PER_UNIT } from '../baseMap.js';
import { t } from '../i18n.js';
import { byId } from './dom.js';

/** @typedef {import('../positionWatch.js').Fix} Fix */
/** @typedef {import('../positionWatch.js').FixProblem} FixProblem */
/** @typedef {import('../mapCore.js').Viewport} Viewport */

/**
 * What the map does for the position.
 * @typedef {object} PositionHost
 * @property {(fix: Fix, first: boolean) => void} centreOn a fix to centre on: asked by the button, or the first of this session
 * @property {() => void} redraw
 */

/** How long a sentence of the locate button stays. */
const SAY_MS = 6000;

export class MapPosition {
  /** @param {PositionHost} host */
  constructor(host) {
    this.host = host;
    this.marker = byId('map-position');
    this.circle = byId('map-accuracy');
    this.button = byId('map-locate');
    this.status = byId('map-locate-status');
    /** The button was tapped before a fix came: centre on the next one. */
    this.pendingCentre = false;
    /** A fix has centred the map once this session (the map opens at the position). */
    this.centredOnce = false;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.sayTimer = null;
    this.watch = new PositionWatch({
      geolocation: navigator.geolocation ?? null,
      permissions: navigator.permissions ?? null,
      onFix: (fix) => this.fixed(fix),
      onProblem: (problem) => this.problem(problem),
    });
    this.button.addEventListener('click', () => this.locate());
  }

  /** The map is on the screen. */
  show() {
    void this.watch.show();
  }

  /** The map left the screen. */
  hide() {
    this.pendingCentre = false;
    this.watch.hide();
  }

  /** The person moved the map: the first fix no longer centres it. */
  moved() {
    this.centredOnce = true;
  }

  locate() {
    const answer = this.watch.locate();
    if (answer === 'centre') {
      const fix = this.watch.fix;
      this.say(null);
      this.centredOnce = true;
      if (fix) this.host.centreOn(fix, false);
      return;
    }
    this.pendingCentre = answer === 'waiting';
    this.say(answer === 'waiting' ? t('map.locating') : this.sentence(answer));
  }

  /** @param {Fix | null} fix */
  fixed(fix) {
    if (fix && (this.pendingCentre || !this.centredOnce)) {
      const first = !this.centredOnce && !this.pendingCentre;
      this.pendingCentre = false;
      this.centredOnce = true;
      this.say(null);
      this.host.centreOn(fix, first);
    }
    this.host.redraw();
  }

  /** @param {FixProblem} problem */
  problem(problem) {
    // Said only in answer to a tap; a watch that lost its fix for a while says nothing.
    if (!this.pendingCentre) return;
    this.pendingCentre = false;
    this.say(this.sentence(problem));
  }

  /**
   * @param {FixProblem} problem
   * @returns {string}
   */
  sentence(problem) {
    if (problem === 'denied') return t('map.locateDenied');
    if (problem === 'unsupported') return t('map.locateUnsupported');
    if (problem === 'timeout') return t('map.locateTimeout');
    return t('map.locateUnavailable');
  }

  /** @param {string | null} text */
  say(text) {
    if (this.sayTimer) clearTimeout(this.sayTimer);
    this.sayTimer = null;
    this.status.textContent = text ?? '';
    this.status.hidden = !text;
    if (text) this.sayTimer = setTimeout(() => { this.status.hidden = true; }, SAY_MS);
  }

  /**
   * Puts the marker and its circle where the fix is in this view (hidden without a fix).
   * @param {Viewport} view @param {number} width @param {number} height
   */
  place(view, width, height) {
    const fix = this.watch.fix;
    this.marker.hidden = !fix;
    this.circle.hidden = !fix;
    if (!fix) return;
    const p = project(fix.lat * 1e6, fix.lng * 1e6);
    const { px, py } = toScreen(view, width, height, p.x, p.y);
    const radius = Math.max(0, (fix.accuracy / METRES_PER_UNIT) * view.scale);
    this.marker.style.transform = `translate(${px.toFixed(1)}px, ${py.toFixed(1)}px)`;
    this.circle.style.transform = `translate(${px.toFixed(1)}px, ${py.toFixed(1)}px)`;
    this.circle.style.width = this.circle.style.height = `${(2 * radius).toFixed(1)}px`;
    this.marker.dataset.lat = fix.lat.toFixed(6);
    this.marker.dataset.lng = fix.lng.toFixed(6);
    this.marker.dataset.accuracy = String(Math.round(fix.accuracy));
  }
}
