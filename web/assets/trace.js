// The device page's firmware trace: the messages the driver printed for this device
// (GET /api/devices/N/trace?after=TS), appended live, newest last.
'use strict';

const traceMaxRows = 500;
let traceLast = 0;
let traceTimer = null;

function traceRow(r) {
  return el('tr', {class: r.lost ? 'attention' : ''},
    el('td', {class: 'mono'}, '0x' + r.timestamp.toString(16)),
    el('td', {}, r.lost ? 'LOST before' : ''),
    el('td', {class: 'mono'}, '0x' + r.event_id.toString(16)),
    el('td', {class: 'trace-message'}, r.message));
}

async function pollTrace() {
  traceTimer = null;
  const live = document.getElementById('trace-live');
  const doc = await api('/api/devices/' + deviceIndex + '/trace?after=' + traceLast);
  let next = 1000;
  if (!doc.ok) {
    setStatus('trace-status', doc.error.message, true);
    next = 5000;
  } else if (!doc.available) {
    setStatus('trace-status', 'no trace: ' + doc.reason, false);
    next = 5000;
  } else {
    const body = document.querySelector('#trace tbody');
    for (const r of doc.records) body.append(traceRow(r));
    while (body.rows.length > traceMaxRows) body.deleteRow(0);
    traceLast = doc.last;
    setStatus('trace-status', '· ' + body.rows.length + ' message(s), the newest last', false);
  }
  if (live.checked) traceTimer = setTimeout(pollTrace, next);
}

function startTrace() {
  const live = document.getElementById('trace-live');
  live.addEventListener('change', () => {
    if (live.checked && traceTimer === null) pollTrace();
    if (!live.checked && traceTimer !== null) { clearTimeout(traceTimer); traceTimer = null; }
  });
  pollTrace();
}

document.addEventListener('DOMContentLoaded', () => {
  if (document.body.dataset.page === 'device') startTrace();
});
