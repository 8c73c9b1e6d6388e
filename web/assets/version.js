'use strict';
// Firmware versions ("12.27.1016") compared part by part as numbers; one rule for every page.
function versionParts(v) { return String(v).split('.').map((x) => parseInt(x, 10) || 0); }
function versionLess(a, b) {
  const x = versionParts(a), y = versionParts(b);
  for (let i = 0; i < Math.max(x.length, y.length); ++i) if ((x[i] || 0) !== (y[i] || 0)) return (x[i] || 0) < (y[i] || 0);
  return false;
}
