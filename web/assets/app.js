// openflint web console: plain JavaScript over the JSON endpoints (docs/json.md "mst web").
'use strict';

const params = new URLSearchParams(location.search);
if (params.get('token')) sessionStorage.setItem('openflint_token', params.get('token'));
const token = sessionStorage.getItem('openflint_token') || '';

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('data-')) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(c == null ? '' : String(c)));
  return e;
}

async function api(path, options = {}) {
  const headers = Object.assign({'X-Openflint-Token': token}, options.headers || {});
  const response = await fetch(path, Object.assign({}, options, {headers, credentials: 'same-origin'}));
  const text = await response.text();
  let doc = null;
  try { doc = JSON.parse(text); } catch (e) { doc = {ok: false, error: {message: text}}; }
  if (!response.ok && doc.ok !== false) doc = {ok: false, error: {message: response.status + ' ' + response.statusText}};
  return doc;
}

function setStatus(id, text, isError) {
  const s = document.getElementById(id);
  s.textContent = text;
  s.classList.toggle('error', !!isError);
}

function showMode(readOnly) {
  const m = document.getElementById('mode');
  m.textContent = readOnly ? 'read-only' : 'read-write';
  m.classList.toggle('read-only', readOnly);
}

// ---- devices page -------------------------------------------------------------------------

function attentionOf(q) {
  if (q.ok === false && !q.device) return [q.error ? q.error.message : 'cannot be opened'];
  const notes = [];
  if (q.ok === false) notes.push('no valid image on flash');
  const running = q.running || {};
  if (running.recovery) notes.push('running in recovery');
  if (running.fw_version && q.fw_version && running.fw_version !== q.fw_version)
    notes.push('flash ' + q.fw_version + ' ≠ running ' + running.fw_version + ' (reset to activate)');
  return notes;
}

// The newest flash firmware of each PSID among the devices served: an older one is "old firmware".
function newestByPsid(devices) {
  const newest = {};
  for (const d of devices) {
    const q = d.query || {};
    if (q.psid && q.fw_version && (!newest[q.psid] || versionLess(newest[q.psid], q.fw_version))) newest[q.psid] = q.fw_version;
  }
  return newest;
}

async function loadDevices(refresh) {
  const doc = await api('/api/devices' + (refresh ? '?refresh=1' : ''));
  if (!doc.ok) return setStatus('status', doc.error.message, true);
  showMode(doc.read_only);
  const body = document.querySelector('#devices tbody');
  body.replaceChildren();
  const newest = newestByPsid(doc.devices);
  for (const d of doc.devices) {
    const q = d.query || {};
    const notes = attentionOf(q);
    if (q.psid && q.fw_version && versionLess(q.fw_version, newest[q.psid]))
      notes.push('old firmware: ' + q.fw_version + ' (other ' + q.psid + ' boards have ' + newest[q.psid] + ')');
    const link = el('a', {class: 'open', href: '/device?i=' + d.index}, d.name);
    const flash = el('a', {class: 'flash', href: '/flash?i=' + d.index}, 'flash');
    const config = el('a', {class: 'config', href: '/config?i=' + d.index}, 'config');
    const row = el('tr', {class: 'device' + (notes.length ? ' attention' : ''), 'data-index': d.index, 'data-name': d.name},
      el('td', {}, link, ' · ', flash, ' · ', config),
      el('td', {}, q.device ? q.device.part_number + ' (' + q.device.name + ')' : ''),
      el('td', {class: 'mono'}, q.running && q.running.fw_version ? q.running.fw_version : '—'),
      el('td', {class: 'mono'}, q.fw_version || '—'),
      el('td', {class: 'mono'}, q.psid || ''),
      el('td', {class: 'mono'}, q.base_guid ? q.base_guid.base : ''),
      el('td', {class: 'attention-notes'}, notes.join('; ')));
    body.append(row);
  }
  const oldest = Math.min(...doc.devices.map((d) => d.queried_at));
  setStatus('status', doc.devices.length + ' device(s)' +
    (doc.devices.length ? ', queried since ' + new Date(oldest * 1000).toLocaleTimeString() : ''));
}

// ---- device page ----------------------------------------------------------------------------

const deviceIndex = params.get('i');
let last = null;         // address -> {value, fields}
const changedAt = new Map();  // address or address/field -> when its change was seen (ms)
const kHighlightMs = 3000;    // a change stays highlighted this long (at least one refresh)

// Whether `key` changed now (recorded) or within the last kHighlightMs.
function highlight(key, changedNow) {
  const now = Date.now();
  if (changedNow) changedAt.set(key, now);
  const at = changedAt.get(key);
  return at !== undefined && now - at < kHighlightMs;
}
const snapshots = [];    // {time, words: Map address -> value, names}
let timer = null;

function fieldMap(doc) {
  const m = new Map();
  for (const r of doc.named) m.set(r.address, r);
  return m;
}

// The catalog range (register block) an address falls in.
function rangeOf(doc, address) {
  const a = parseInt(address, 16);
  for (const r of doc.ranges) {
    const first = parseInt(r.first, 16);
    if (a >= first && a < first + 4 * r.dwords) return r;
  }
  return null;
}

function renderRegisters(doc) {
  document.getElementById('device-name').textContent = doc.device;
  document.getElementById('family').textContent = doc.family + ', hw_id ' + doc.hw_id;
  const body = document.querySelector('#registers tbody');
  const named = fieldMap(doc);
  const now = new Map();
  const rows = [];
  let block = null;
  for (const [address, value] of doc.words) {
    const range = rangeOf(doc, address);
    if (range && range !== block) {
      block = range;
      rows.push(el('tr', {class: 'range'}, el('th', {colSpan: 4}, range.name + ' — ' + range.first + ', ' + range.dwords + ' dwords')));
    }
    const reg = named.get(address);
    const previous = last ? last.get(address) : undefined;
    now.set(address, {value, fields: reg ? reg.fields : {}});
    const fields = el('td', {class: 'fields'});
    if (reg) {
      for (const [name, v] of Object.entries(reg.fields)) {
        const changed = highlight(address + '/' + name, previous && previous.fields[name] !== v);
        const span = el('span', {class: 'field' + (changed ? ' changed' : ''), 'data-field': name, tabIndex: 0}, name + '=' + v);
        span.addEventListener('click', () => pickField(address, name, v));
        span.addEventListener('keydown', (e) => { if (e.key === 'Enter') pickField(address, name, v); });
        fields.append(span);
      }
    }
    const changed = highlight(address, previous && previous.value !== value);
    rows.push(el('tr', {class: 'register' + (reg ? '' : ' unnamed') + (changed ? ' changed' : ''), 'data-address': address,
      'data-name': reg ? reg.name : ''},
      el('td', {class: 'mono'}, address), el('td', {}, reg ? reg.name : ''), el('td', {class: 'mono value'}, value), fields));
  }
  body.replaceChildren(...rows);
  last = now;
  const skipped = document.getElementById('skipped');
  skipped.replaceChildren(...doc.skipped.map((s) => el('li', {class: 'mono'}, s.address + ' ' + s.name + ': ' + s.reason)));
  return doc;
}

function pickField(address, field, value) {
  document.getElementById('write-address').value = address;
  document.getElementById('write-field').value = field;
  document.getElementById('write-value').value = value;
  document.getElementById('write-value').focus();
}

let current = null;
async function refreshRegisters() {
  const started = performance.now();
  const doc = await api('/api/devices/' + deviceIndex + '/registers');
  if (!doc.ok) return setStatus('status', doc.error.message, true);
  current = renderRegisters(doc);
  setStatus('status', 'read ' + doc.words.length + ' dwords in ' + Math.round(performance.now() - started) + ' ms at ' +
    new Date().toLocaleTimeString());
}

function schedule() {
  if (timer) clearInterval(timer);
  timer = null;
  const ms = Number(document.getElementById('interval').value);
  if (ms > 0) timer = setInterval(refreshRegisters, ms);
}

function takeSnapshot() {
  if (!current) return;
  const names = fieldMap(current);
  snapshots.push({time: new Date(), words: new Map(current.words), names});
  const list = document.getElementById('snapshots');
  list.append(el('li', {}, snapshots[snapshots.length - 1].time.toLocaleTimeString() + ' (' + current.words.length + ' dwords)'));
}

function showDiff() {
  const table = document.getElementById('diff-output');
  if (snapshots.length < 2) return setStatus('status', 'take two snapshots first', true);
  const [a, b] = snapshots.slice(-2);
  const rows = [];
  for (const [address, after] of b.words) {
    const before = a.words.get(address);
    if (before === after) continue;
    const reg = b.names.get(address);
    rows.push(el('tr', {class: 'diff', 'data-address': address}, el('td', {class: 'mono'}, address),
      el('td', {}, reg ? reg.name : ''), el('td', {class: 'mono'}, before == null ? '—' : before), el('td', {class: 'mono'}, after)));
  }
  table.querySelector('tbody').replaceChildren(...rows);
  table.hidden = false;
  setStatus('status', rows.length + ' dword(s) differ between the last two snapshots');
}

async function writeField() {
  const address = document.getElementById('write-address').value.trim();
  const field = document.getElementById('write-field').value.trim();
  const value = document.getElementById('write-value').value.trim();
  const what = address + (field ? '.' + field : '') + ' = ' + value;
  if (!confirm('Write ' + what + ' on ' + document.getElementById('device-name').textContent + '?')) return;
  const doc = await api('/api/devices/' + deviceIndex + '/field', {
    method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({address, field, value})});
  if (!doc.ok) return setStatus('write-status', 'refused: ' + doc.error.message, true);
  setStatus('write-status', 'wrote ' + doc.register + ': ' + doc.before + ' → ' + doc.after);
  refreshRegisters();
}

async function loadDevice() {
  document.getElementById('download').href = '/api/devices/' + deviceIndex + '/dump.txt';
  document.getElementById('flash-link').href = '/flash?i=' + deviceIndex;
  const list = await api('/api/devices');
  if (list.ok) {
    showMode(list.read_only);
    if (list.read_only) {
      for (const id of ['write-address', 'write-field', 'write-value', 'write-button']) document.getElementById(id).disabled = true;
      setStatus('write-status', 'read-only console: writes are refused');
    }
  }
  document.getElementById('interval').addEventListener('change', schedule);
  const namedOnly = document.getElementById('named-only');
  const applyFilter = () => document.getElementById('registers').classList.toggle('named-only', namedOnly.checked);
  namedOnly.addEventListener('change', applyFilter);
  applyFilter();
  document.getElementById('refresh').addEventListener('click', refreshRegisters);
  document.getElementById('snapshot').addEventListener('click', takeSnapshot);
  document.getElementById('diff').addEventListener('click', showDiff);
  document.getElementById('write-button').addEventListener('click', writeField);
  await refreshRegisters();
  schedule();
}

// ---- flash page ------------------------------------------------------------------------------

const kPage = 256;
let sections = [];

function sectionAt(offset) {
  for (let i = 0; i < sections.length; ++i) {
    const s = sections[i];
    if (offset >= s.startNum && offset < s.startNum + s.sizeNum) return i;
  }
  return -1;
}

async function showBytes(offset) {
  offset = Math.max(0, offset - (offset % 16));
  document.getElementById('offset').value = '0x' + offset.toString(16);
  const doc = await api('/api/devices/' + deviceIndex + '/flash?offset=' + offset + '&length=' + kPage);
  if (!doc.ok) return setStatus('status', doc.error.message, true);
  const rows = [];
  for (let at = 0; at < doc.length; at += 16) {
    const hex = doc.hex.substr(at * 2, 32);
    const bytes = hex.match(/../g) || [];
    const ascii = bytes.map((b) => { const c = parseInt(b, 16); return c >= 32 && c < 127 ? String.fromCharCode(c) : '.'; }).join('');
    const address = doc.offset + at;
    const i = sectionAt(address);
    rows.push(el('tr', {class: 'hexrow' + (i >= 0 ? ' section-' + (i % 8) : ''), 'data-offset': '0x' + address.toString(16)},
      el('td', {}, '0x' + address.toString(16).padStart(8, '0')), el('td', {class: 'bytes'}, bytes.join(' ')),
      el('td', {class: 'ascii'}, ascii), el('td', {}, i >= 0 ? sections[i].name : '')));
  }
  document.querySelector('#hex tbody').replaceChildren(...rows);
  setStatus('status', doc.length + ' bytes at 0x' + doc.offset.toString(16) + ' of ' + doc.flash_size + ' (flash size)');
}

async function loadFlash() {
  document.getElementById('registers-link').href = '/device?i=' + deviceIndex;
  const list = await api('/api/devices');
  if (list.ok) {
    showMode(list.read_only);
    const d = list.devices[Number(deviceIndex)];
    if (d) document.getElementById('device-name').textContent = d.name;
  }
  const doc = await api('/api/devices/' + deviceIndex + '/verify');
  if (doc.sections) {
    sections = doc.sections.map((s) => Object.assign({}, s, {startNum: parseInt(s.start, 16), sizeNum: s.size}));
    document.getElementById('layout').textContent = doc.layout || '';
    const rows = sections.map((s, i) => {
      const link = el('a', {href: '#', class: 'jump'}, s.name);
      link.addEventListener('click', (e) => { e.preventDefault(); showBytes(s.startNum); });
      const end = s.sizeNum > 0 ? '0x' + (s.startNum + s.sizeNum - 1).toString(16) : '—';
      return el('tr', {class: 'section section-' + (i % 8) + (s.status === 'wrong CRC' || s.status === 'INVALID' ? ' error' : ''), 'data-name': s.name},
        el('td', {}, link), el('td', {class: 'mono'}, s.start), el('td', {class: 'mono'}, end), el('td', {}, s.status));
    });
    document.querySelector('#sections tbody').replaceChildren(...rows);
    document.getElementById('problems').replaceChildren(...(doc.problems || []).map((p) => el('li', {}, p)));
  } else if (doc.error) {
    setStatus('status', doc.error.message, true);
  }
  const current = () => parseInt(document.getElementById('offset').value, 16) || 0;
  document.getElementById('go').addEventListener('click', () => showBytes(current()));
  document.getElementById('offset').addEventListener('keydown', (e) => { if (e.key === 'Enter') showBytes(current()); });
  document.getElementById('prev').addEventListener('click', () => showBytes(Math.max(0, current() - kPage)));
  document.getElementById('next').addEventListener('click', () => showBytes(current() + kPage));
  await showBytes(0);
}

document.addEventListener('DOMContentLoaded', () => {
  const page = document.body.dataset.page;
  if (page === 'devices') {
    document.getElementById('requery').addEventListener('click', () => loadDevices(true));
    loadDevices(false);
  }
  else if (page === 'flash') loadFlash();
  else if (page === 'device') loadDevice();
  // Other pages (configuration, fabric) have their own scripts.
});
