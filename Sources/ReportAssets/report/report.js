// The report's entry: draws the map from the page's #map-data (map.js). Appended to map.js in the
// page's one inline module script, where drawReportMap is in scope (docs/ledger-cli.md "The progress report").
/* global drawReportMap */
drawReportMap(
  /** @type {SVGSVGElement} */ (/** @type {unknown} */ (document.getElementById('map'))),
  /** @type {HTMLElement} */ (document.getElementById('tip')),
  /** @type {HTMLElement} */ (document.getElementById('map-frame')),
  JSON.parse(/** @type {HTMLElement} */ (document.getElementById('map-data')).textContent || '{}'));
