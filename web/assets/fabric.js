// openflint web console, the Fabric page: systems and cables (/api/fabric), firmware across the
// fabric (/api/fabric/firmware) and health over time (/api/fabric/health); docs/web.md. Plain
// JavaScript and SVG: no library, nothing fetched but the console's own endpoints.
'use strict';

const fabricParams = new URLSearchParams(location.search);
if (fabricParams.get('token')) sessionStorage.setItem('openflint_token', fabricParams.get('token'));
const fabricToken = sessionStorage.getItem('openflint_token') || '';
const SVG_NS = 'http://www.w3.org/2000/svg';
const kKeepPoints = 120;  // per plotted series: 10 minutes at 5 s

function node(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(c == null ? '' : String(c)));
  return e;
}

function shape(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

async function fabricApi(path) {
  try {
    const response = await fetch(path, {headers: {'X-Openflint-Token': fabricToken}, credentials: 'same-origin'});
    const text = await response.text();
    let doc;
    try { doc = JSON.parse(text); } catch (e) { doc = {ok: false, error: {message: text}}; }
    if (!response.ok && doc.ok !== false) doc = {ok: false, error: {message: response.status + ' ' + response.statusText}};
    return doc;
  } catch (e) {
    return {ok: false, error: {message: 'the console does not answer: ' + e.message}};
  }
}

function status(id, text, isError) {
  const s = document.getElementById(id);
  s.textContent = text;
  s.classList.toggle('error', !!isError);
}

const byName = (a, b) => a.localeCompare(b, undefined, {numeric: true});
const portNumber = (p) => parseInt(String(p).replace(/^P/, ''), 10);
const endKey = (system, port) => system + ' P' + portNumber(port);
const pairKey = (a, b) => [a, b].sort().join(' <-> ');

const state = {listing: null, health: null, counters: new Map(), temperatures: new Map(), timer: null, chosen: false};

// ---- the picture -------------------------------------------------------------------------

// Rows by distance from the adapters: hosts at the bottom, then the switches they hang off, ...
function layout(systems, edges) {
  const adjacent = new Map(systems.map((s) => [s.name, []]));
  for (const [a, b] of edges) {
    if (adjacent.has(a) && adjacent.has(b)) { adjacent.get(a).push(b); adjacent.get(b).push(a); }
  }
  const level = new Map();
  let frontier = systems.filter((s) => s.node_type === 'hca').map((s) => s.name);
  frontier.forEach((n) => level.set(n, 0));
  while (frontier.length) {
    const next = [];
    for (const n of frontier) {
      for (const m of adjacent.get(n)) if (!level.has(m)) { level.set(m, level.get(n) + 1); next.push(m); }
    }
    frontier = next;
  }
  for (const s of systems) if (!level.has(s.name)) level.set(s.name, s.node_type === 'hca' ? 0 : 1);
  const top = Math.max(0, ...level.values());
  const rows = [];
  for (let l = top; l >= 0; --l) rows.push(systems.filter((s) => level.get(s.name) === l).map((s) => s.name).sort(byName));
  const width = Math.max(640, 160 * Math.max(1, ...rows.map((r) => r.length)));
  const at = new Map();
  rows.forEach((row, r) => row.forEach((name, i) => at.set(name, {x: (i + 0.5) * width / row.length, y: 40 + r * 110})));
  return {at, width, height: 80 + (rows.length - 1) * 110};
}

// The health findings by port ("leaf-3 P2": "warn"/"error") and by system (temperature).
function healthMarks(health) {
  const ports = new Map();
  const systems = new Map();
  for (const f of (health && health.findings) || []) {
    if (f.kind === 'temperature') systems.set(f.system, 'error');
    else ports.set(endKey(f.system, f.port), f.kind === 'port-state' ? 'error' : 'warn');
  }
  return {ports, systems};
}

function cableClass(c, marks, check) {
  const ends = [endKey(c.a.system, c.a.port), endKey(c.b.system, c.b.port)];
  if (ends.some((e) => check.wrong.has(e))) return 'miswired';
  if (c.state !== 'Active') return 'error';
  const m = ends.map((e) => marks.ports.get(e));
  if (m.includes('error')) return 'error';
  if (m.includes('warn')) return 'warn';
  return 'ok';
}

// What the cabling check says, indexed for drawing.
function checkIndex(listing) {
  const wrong = new Set();   // ports of miswired or extra cables
  const missing = new Map(); // pair → {a, b, text}
  const ghosts = new Set();  // systems of the topology file not on the fabric
  const unexpected = new Set();
  for (const f of (listing.check && listing.check.findings) || []) {
    if (f.kind === 'missing-system') ghosts.add(f.system);
    else if (f.kind === 'unexpected-system') unexpected.add(f.system);
    else if (f.kind === 'missing-cable') {
      const a = endKey(f.system, f.port);
      const b = endKey(f.expected.system, f.expected.port);
      missing.set(pairKey(a, b), {a: f.system, b: f.expected.system, ends: [a, b].sort(), text: f.text});
    } else if (f.kind === 'miswired' || f.kind === 'extra-cable') {
      wrong.add(endKey(f.system, f.port));
      if (f.kind === 'miswired' && f.expected) {  // where the cable should go: drawn like a missing one
        const a = endKey(f.system, f.port);
        const b = endKey(f.expected.system, f.expected.port);
        if (!missing.has(pairKey(a, b)))
          missing.set(pairKey(a, b), {a: f.system, b: f.expected.system, ends: [a, b].sort(), text: f.text, declared: true});
      }
    }
  }
  for (const m of missing.values()) for (const s of [m.a, m.b]) if (!listing.systems.some((x) => x.name === s)) ghosts.add(s);
  return {wrong, missing, ghosts, unexpected};
}

function drawFabric() {
  const listing = state.listing;
  if (!listing) return;
  const check = checkIndex(listing);
  const marks = healthMarks(state.health);
  const systems = listing.systems.slice();
  for (const g of check.ghosts) systems.push({name: g, node_type: 'ghost', ghost: true});
  const edges = listing.cables.map((c) => [c.a.system, c.b.system]);
  for (const m of check.missing.values()) edges.push([m.a, m.b]);
  const {at, width, height} = layout(systems, edges);
  const picture = document.getElementById('fabric');
  picture.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
  picture.setAttribute('height', String(Math.min(height, 700)));
  const lines = [];
  for (const c of listing.cables) {
    const p = at.get(c.a.system), q = at.get(c.b.system);
    const ends = endKey(c.a.system, c.a.port) + ' <-> ' + endKey(c.b.system, c.b.port);
    lines.push(shape('line', {class: 'cable ' + cableClass(c, marks, check), x1: p.x, y1: p.y, x2: q.x, y2: q.y,
                              'data-a': endKey(c.a.system, c.a.port), 'data-b': endKey(c.b.system, c.b.port)},
                     shape('title', {}, ends + ' · ' + c.width + ' ' + c.speed + ' ' + c.state)));
  }
  for (const m of check.missing.values()) {
    const p = at.get(m.a), q = at.get(m.b);
    lines.push(shape('line', {class: 'cable missing' + (m.declared ? ' declared' : ''), x1: p.x, y1: p.y, x2: q.x, y2: q.y,
                              'data-a': m.ends[0], 'data-b': m.ends[1]}, shape('title', {}, m.text)));
  }
  const pages = listing.device_pages || {};
  const nodes = systems.map((s) => {
    const {x, y} = at.get(s.name);
    const kind = s.ghost ? 'ghost' : s.node_type;
    const hot = marks.systems.get(s.name);
    const cls = 'node ' + kind + (check.unexpected.has(s.name) ? ' unexpected' : '') + (hot ? ' hot' : '');
    const label = s.ghost ? 'missing' : (s.type || s.device || '') + (s.fw_version ? ' ' + s.fw_version : '');
    const page = s.guid !== undefined ? pages[s.guid] : undefined;
    const g = page !== undefined ? shape('a', {href: '/device?i=' + page}) : shape('g', {tabindex: '0'});
    g.setAttribute('class', cls);
    g.setAttribute('data-name', s.name);
    g.append(shape('title', {}, s.ghost ? s.name + ': in the topology file, not on the fabric'
                                         : s.name + ' · ' + s.node_type + ' · ' + s.guid + ' · lid ' + s.lid +
                                           (s.device ? ' · ' + s.device : '') + (page !== undefined ? ' · Enter: device page' : '')),
             shape('rect', {x: x - 72, y: y - 18, width: 144, height: 36, rx: s.node_type === 'switch' ? 3 : 12}),
             shape('text', {x, y: y - 2, 'text-anchor': 'middle'}, s.name),
             shape('text', {x, y: y + 12, 'text-anchor': 'middle', class: 'small'}, label));
    return g;
  });
  picture.replaceChildren(...lines, ...nodes);
  const findings = (listing.check && listing.check.findings) || [];
  document.getElementById('findings').replaceChildren(...findings.map((f) => node('li', {class: 'finding ' + f.kind}, f.text)));
  const checked = listing.topology ? (findings.length ? ' · cabling: ' + findings.length + ' problem(s)' : ' · cabling matches the topology file')
                                   : ' · no topology file (-t): cabling not checked';
  status('status', listing.systems.length + ' systems, ' + listing.cables.length + ' cables · swept ' +
         new Date(listing.swept_at * 1000).toLocaleTimeString() + checked, findings.length > 0);
}

async function loadFabric(refresh) {
  status('status', 'Sweeping the fabric…');
  const doc = await fabricApi('/api/fabric' + (refresh ? '?refresh=1' : ''));
  if (!doc.ok) return status('status', doc.error.message, true);
  state.listing = doc;
  drawFabric();
}

// ---- firmware ----------------------------------------------------------------------------


async function loadFirmware(refresh) {
  status('firmware-status', 'Asking the nodes…');
  const doc = await fabricApi('/api/fabric/firmware' + (refresh ? '?refresh=1' : ''));
  if (!doc.ok) return status('firmware-status', doc.error.message, true);
  const newest = new Map();  // device → newest version seen on the fabric
  for (const n of doc.nodes) {
    if (!n.device || !n.fw_version) continue;
    if (!newest.has(n.device) || versionLess(newest.get(n.device), n.fw_version)) newest.set(n.device, n.fw_version);
  }
  let old = 0;
  const pages = doc.device_pages || {};
  const rows = doc.nodes.slice().sort((a, b) => byName(a.system.name || a.description, b.system.name || b.description)).map((n) => {
    const isOld = n.device && n.fw_version && versionLess(n.fw_version, newest.get(n.device));
    old += isOld ? 1 : 0;
    const name = n.system.name ? n.system.name + (n.system.within ? ' ' + n.system.within : '') : (n.description || n.guid);
    const cell = pages[n.guid] !== undefined ? node('a', {href: '/device?i=' + pages[n.guid]}, name) : name;
    const note = !n.vendor_access && !n.path.startsWith('out-of-band') ? 'no vendor access' :
      (isOld ? 'older than ' + newest.get(n.device) + ' elsewhere' : n.note);
    return node('tr', {class: 'fw-node' + (isOld ? ' old' : '') + (n.fw_version ? '' : ' unknown'), 'data-name': name,
                       'data-guid': n.guid, 'data-psid': n.psid || ''},
                node('td', {}, cell), node('td', {}, n.type), node('td', {}, n.device || '-'), node('td', {class: 'mono'}, n.psid || '-'),
                node('td', {class: 'mono'}, n.fw_version || '-'), node('td', {class: 'mono'}, n.flash_fw_version || '-'),
                node('td', {}, n.path), node('td', {}, note || ''));
  });
  document.querySelector('#firmware tbody').replaceChildren(...rows);
  const versions = [...newest.entries()].map(([d, v]) => d + ' ' + v).join(', ');
  status('firmware-status', doc.nodes.length + ' nodes' + (versions ? ' · newest: ' + versions : '') +
         (old ? ' · ' + old + ' behind' : ''), old > 0);
  offerUpdates(doc);  // fabric-update.js
}

// ---- health over time --------------------------------------------------------------------

function remember(series, key, point) {
  if (!series.has(key)) series.set(key, []);
  const list = series.get(key);
  list.push(point);
  if (list.length > kKeepPoints) list.shift();
}

function fillSelect(id, keys) {
  const select = document.getElementById(id);
  const chosen = select.value;
  const have = [...select.options].map((o) => o.value);
  if (have.join('\n') === keys.join('\n')) return;
  select.replaceChildren(...keys.map((k) => node('option', {value: k}, k)));
  if (keys.includes(chosen)) select.value = chosen;
}

// A line plot of `lines` ([{name, points: [{t, v}]}]) with a dashed `limit`.
function plot(svgId, lines, limit, unit) {
  const svg = document.getElementById(svgId);
  const w = 560, h = 160, left = 44, right = 110, top = 10, bottom = 24;
  svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
  const all = lines.flatMap((l) => l.points);
  if (!all.length) return svg.replaceChildren(shape('text', {x: left, y: h / 2}, 'no readings yet'));
  const t0 = Math.min(...all.map((p) => p.t)), t1 = Math.max(t0 + 1000, ...all.map((p) => p.t));
  const vmax = Math.max(1, limit == null ? 0 : limit, ...all.map((p) => p.v)) * 1.15;
  const X = (t) => left + (t - t0) / (t1 - t0) * (w - left - right);
  const Y = (v) => h - bottom - v / vmax * (h - top - bottom);
  const parts = [shape('line', {class: 'axis', x1: left, y1: Y(0), x2: w - right, y2: Y(0)}),
                 shape('line', {class: 'axis', x1: left, y1: top, x2: left, y2: Y(0)}),
                 shape('text', {x: left - 4, y: Y(0), 'text-anchor': 'end', class: 'small'}, '0'),
                 shape('text', {x: left - 4, y: top + 8, 'text-anchor': 'end', class: 'small'}, Math.round(vmax)),
                 shape('text', {x: w - right, y: h - 6, 'text-anchor': 'end', class: 'small'},
                       Math.round((t1 - t0) / 1000) + ' s')];
  if (limit != null) {
    parts.push(shape('line', {class: 'limit', x1: left, y1: Y(limit), x2: w - right, y2: Y(limit)}),
               shape('text', {x: w - right + 4, y: Y(limit) + 4, class: 'small limit-label'}, 'limit ' + limit + (unit || '')));
  }
  lines.forEach((l, i) => {
    const d = l.points.map((p, k) => (k ? 'L' : 'M') + X(p.t).toFixed(1) + ' ' + Y(p.v).toFixed(1)).join(' ');
    const over = l.points.some((p) => limit != null && p.v > limit);
    parts.push(shape('path', {class: 'series s' + (i % 6) + (over ? ' over' : ''), d, 'data-name': l.name}));
    const last = l.points[l.points.length - 1];
    parts.push(shape('circle', {class: 'series-point s' + (i % 6) + (limit != null && last.v > limit ? ' over' : ''),
                                cx: X(last.t), cy: Y(last.v), r: 3}),
               shape('text', {x: w - right + 4, y: 14 + 12 * i, class: 'small s' + (i % 6)}, l.name + ' ' + last.v + (unit || '')));
  });
  svg.replaceChildren(...parts);
}

function drawPlots() {
  const health = state.health;
  if (!health) return;
  const port = document.getElementById('port').value;
  const points = state.counters.get(port) || [];
  const names = new Set();
  for (const p of points) for (const [k, v] of Object.entries(p.counters || {})) if (v > 0) names.add(k);
  const lines = [{name: 'all errors', points: points.map((p) => ({t: p.t, v: Object.values(p.counters || {}).reduce((a, b) => a + b, 0)}))}];
  for (const n of [...names].sort()) lines.push({name: n, points: points.map((p) => ({t: p.t, v: (p.counters || {})[n] || 0}))});
  const limits = health.readings.thresholds.counters;
  const shown = [...names].map((n) => limits[n]).filter((l) => l != null);
  plot('counter-plot', lines, shown.length ? Math.min(...shown) : null, '');
  const system = document.getElementById('temp-node').value;
  plot('temp-plot', [{name: system || 'temperature', points: state.temperatures.get(system) || []}],
       health.readings.thresholds.temperature_c, ' °C');
}

async function pollHealth() {
  const doc = await fabricApi('/api/fabric/health');
  if (!doc.ok) { status('health-status', doc.error.message, true); return; }
  const fresh = !state.health || doc.pass !== state.health.pass;
  state.health = doc;
  if (fresh) {
    const t = doc.sampled_at_ms;
    for (const p of doc.readings.ports) remember(state.counters, p.system + ' P' + p.port, {t, counters: p.counters});
    for (const c of doc.readings.temperatures) remember(state.temperatures, c.system, {t, v: c.celsius});
  }
  const ports = doc.readings.ports.map((p) => p.system + ' P' + p.port).sort(byName);
  fillSelect('port', ports);
  fillSelect('temp-node', doc.readings.temperatures.map((c) => c.system).sort(byName));
  if (!state.chosen) {  // at first the port and the device a finding names
    const counter = doc.findings.find((f) => f.kind === 'counter' || f.kind === 'port-state');
    const hot = doc.findings.find((f) => f.kind === 'temperature');
    if (counter) document.getElementById('port').value = counter.system + ' P' + counter.port;
    if (hot) document.getElementById('temp-node').value = hot.system;
    state.chosen = true;
  }
  document.getElementById('health-findings').replaceChildren(...doc.findings.map((f) => node('li', {class: 'finding ' + f.kind}, f.text)));
  status('health-status', 'pass ' + doc.pass + ' · ' + doc.ports + ' cabled ports, ' + doc.temperatures_read + ' temperatures · ' +
         (doc.healthy ? 'healthy' : doc.findings.length + ' finding(s)'), !doc.healthy);
  drawFabric();
  drawPlots();
}

function schedule() {
  clearTimeout(state.timer);
  const every = parseInt(document.getElementById('interval').value, 10);
  if (every > 0) state.timer = setTimeout(async () => { await pollHealth(); schedule(); }, every);
}

document.addEventListener('DOMContentLoaded', async () => {
  document.getElementById('resweep').addEventListener('click', () => { loadFabric(true); loadFirmware(true); });
  document.getElementById('port').addEventListener('change', drawPlots);
  document.getElementById('temp-node').addEventListener('change', drawPlots);
  document.getElementById('interval').addEventListener('change', schedule);
  await loadFabric(false);
  await pollHealth();
  schedule();
  loadFirmware(false);
});
