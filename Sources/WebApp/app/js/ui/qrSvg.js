// Draws a QR code's matrix (qrCode.js) as an inline SVG built node by node (no markup is parsed,
// and the page's Content-Security-Policy allows it): one path of the dark modules, each row's runs
// merged, inside the four-module quiet zone the standard asks for.

const SVG = 'http://www.w3.org/2000/svg';
const QUIET = 4;

/**
 * The path data of the dark modules, in module units, offset by the quiet zone.
 * @param {boolean[][]} modules
 */
export function darkPath(modules) {
  /** @type {string[]} */
  const parts = [];
  modules.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      if (!row[x]) continue;
      let run = 1;
      while (x + run < row.length && row[x + run]) run++;
      parts.push(`M${x + QUIET} ${y + QUIET}h${run}v1h-${run}z`);
      x += run - 1;
    }
  });
  return parts.join('');
}

/**
 * An <svg> of the code, `pixels` wide, labelled for screen readers.
 * @param {{size: number, modules: boolean[][]}} code
 * @param {string} label
 * @param {number} [pixels]
 * @returns {SVGSVGElement}
 */
export function qrSvg(code, label, pixels = 232) {
  const side = code.size + 2 * QUIET;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${side} ${side}`);
  svg.setAttribute('width', String(pixels));
  svg.setAttribute('height', String(pixels));
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.setAttribute('shape-rendering', 'crispEdges');
  const background = document.createElementNS(SVG, 'rect');
  background.setAttribute('width', String(side));
  background.setAttribute('height', String(side));
  background.setAttribute('fill', '#fff');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', darkPath(code.modules));
  path.setAttribute('fill', '#000');
  svg.append(background, path);
  return svg;
}
