// openflint web console: the actions on a device — image check and burn, identity, reset (flash
// page), and the configuration page. Uses app.js's api(), el(), setStatus(), showMode(), deviceIndex.
'use strict';

const devicePath = () => '/api/devices/' + deviceIndex;

// Polls a job (/api/jobs/ID) until it ends; onProgress(doc) on each answer. Returns the last document.
async function followJob(id, onProgress) {
  for (;;) {
    const doc = await api('/api/jobs/' + id);
    if (!doc.ok) return doc;
    onProgress(doc);
    if (doc.state !== 'running') return doc;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

function postJson(path, body) {
  return api(path, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
}

function factRow(name, value, cls) {
  return el('tr', {class: cls || ''}, el('th', {}, name), el('td', {class: 'mono'}, value == null ? '—' : value));
}

// ---- firmware: check an image, burn it ----------------------------------------------------------

let upload = null;

async function checkImage() {
  const file = document.getElementById('image-file').files[0];
  const table = document.getElementById('image-check');
  const burn = document.getElementById('burn-button');
  upload = null;
  burn.disabled = true;
  table.hidden = true;
  if (!file) return setStatus('image-status', 'choose an image file first', true);
  setStatus('image-status', 'checking ' + file.name + ' (' + file.size + ' bytes)…');
  const doc = await api(devicePath() + '/image?name=' + encodeURIComponent(file.name),
    {method: 'POST', headers: {'Content-Type': 'application/octet-stream'}, body: file});
  const status = document.getElementById('image-status');
  status.dataset.state = doc.ok ? 'ok' : 'refused';
  if (!doc.ok) return setStatus('image-status', 'refused: ' + doc.error.message, true);
  const pre = doc.preflight;
  const id = pre.identity || {};
  const rows = [
    factRow('Image', doc.label),
    factRow('FW version', pre.new_fw_version),
    factRow('PSID', pre.new_psid),
    factRow('Verifies', doc.verify && doc.verify.problems && doc.verify.problems.length ? doc.verify.problems.join('; ') : 'yes'),
    factRow('On flash now', pre.current_fw_version),
    factRow('The image is', pre.version_order ? {older: 'older than', same: 'the same as', newer: 'newer than'}[pre.version_order] +
            ' the flash\'s' : 'the first on this flash',
            pre.version_order && pre.version_order !== 'newer' ? 'attention' : ''),
    factRow('Identity kept', 'GUIDs ' + ((id.guids || []).join(' ') || (id.base_guid ? id.base_guid.base : '—')) +
            ' (from the ' + id.uids_from + '); VSD "' + (id.vsd || '') + '"'),
  ];
  table.querySelector('tbody').replaceChildren(...rows);
  table.hidden = false;
  upload = doc.upload;
  burn.disabled = false;
  setStatus('image-status', file.name + ' verifies and fits this device: burn it when ready');
}

async function burnImage() {
  if (!upload) return;
  const name = document.getElementById('device-name').textContent;
  const version = document.querySelector('#image-check tbody tr:nth-child(2) td').textContent;
  if (!confirm('Burn FW ' + version + ' into ' + name + '? The board keeps its GUIDs, MACs and VSD.')) return;
  const burn = document.getElementById('burn-button');
  const bar = document.getElementById('burn-progress');
  const status = document.getElementById('burn-status');
  burn.disabled = true;
  const started = await postJson(devicePath() + '/burn', {upload});
  upload = null;
  if (!started.ok) {
    status.dataset.state = 'failed';
    return setStatus('burn-status', 'refused: ' + started.error.message, true);
  }
  bar.hidden = false;
  status.dataset.state = 'running';
  const seen = new Set();
  const end = await followJob(started.job, (job) => {
    if (job.total) bar.value = Math.round((100 * job.done) / job.total);
    seen.add(job.stage);
    status.dataset.stages = [...seen].join(',');
    setStatus('burn-status', job.stage + (job.total ? ' ' + bar.value + '%' : ''));
  });
  status.dataset.state = end.state || 'failed';
  if (end.state !== 'done') return setStatus('burn-status', 'failed: ' + (end.error || end).error?.message || 'unknown', true);
  bar.value = 100;
  const q = end.result.device_query || {};
  setStatus('burn-status', 'burned FW ' + end.result.new_fw_version + ' (was ' + (end.result.previous_fw_version || 'none') +
    ') in ' + end.seconds.toFixed(1) + ' s; flash now FW ' + (q.fw_version || '?') + ', base GUID ' +
    (q.base_guid ? q.base_guid.base : '?') + '. It runs after a reset.');
}

// ---- identity (flint sg / sv) -------------------------------------------------------------------

async function setIdentity() {
  const guid = document.getElementById('id-guid').value.trim();
  const mac = document.getElementById('id-mac').value.trim();
  const vsd = document.getElementById('id-vsd').value;
  const body = {};
  if (guid) body.guid = guid;
  if (mac) body.mac = mac;
  if (vsd) body.vsd = vsd;
  const what = (guid ? 'GUID ' + guid : '') + (mac ? ', MAC ' + mac : '') + (vsd ? (guid ? ', ' : '') + 'VSD "' + vsd + '"' : '');
  if (!what) return setStatus('identity-status', 'give a GUID (and MAC) or a VSD', true);
  if (!confirm('Set ' + what + ' on ' + document.getElementById('device-name').textContent + '?')) return;
  const status = document.getElementById('identity-status');
  const started = await postJson(devicePath() + '/identity', body);
  if (!started.ok) {
    status.dataset.state = 'failed';
    return setStatus('identity-status', 'refused: ' + started.error.message, true);
  }
  const end = await followJob(started.job, (job) => setStatus('identity-status', job.stage + '…'));
  status.dataset.state = end.state || 'failed';
  if (end.state !== 'done') return setStatus('identity-status', 'failed: ' + (end.error ? end.error.error.message : ''), true);
  const r = end.result;
  setStatus('identity-status', 'done (' + r.method + '): base GUID ' + (r.base_guid ? r.base_guid.base : '—') +
    ', base MAC ' + (r.base_mac ? r.base_mac.base : '—') + ', VSD "' + (r.device_vsd || r.image_vsd || '') + '"');
}

// ---- reset ------------------------------------------------------------------------------------

async function resetDevice() {
  const planned = await api(devicePath() + '/reset');
  if (!planned.ok) return setStatus('reset-status', planned.error.message, true);
  const plan = planned.plan;
  if (plan.blockers.length) return setStatus('reset-status', 'cannot reset: ' + plan.blockers.join('; '), true);
  if (!confirm('Reset ' + plan.device + ' (' + plan.method + ')? Traffic through it stops until it is back.')) return;
  setStatus('reset-status', 'resetting…');
  const doc = await postJson(devicePath() + '/reset', {});
  if (!doc.ok) return setStatus('reset-status', 'refused: ' + doc.error.message, true);
  const running = doc.running_after || {};
  setStatus('reset-status', 'reset in ' + doc.took_ms + ' ms; running FW ' + (running.fw_version || 'N/A'));
}

async function loadActions() {
  document.getElementById('config-link').href = '/config?i=' + deviceIndex;
  document.getElementById('check-image').addEventListener('click', checkImage);
  document.getElementById('image-file').addEventListener('change', checkImage);
  document.getElementById('burn-button').addEventListener('click', burnImage);
  document.getElementById('identity-button').addEventListener('click', setIdentity);
  document.getElementById('reset-button').addEventListener('click', resetDevice);
  const list = await api('/api/devices');
  if (list.ok && list.read_only) {
    for (const id of ['image-file', 'check-image', 'id-guid', 'id-mac', 'id-vsd', 'identity-button', 'reset-button'])
      document.getElementById(id).disabled = true;
    setStatus('image-status', 'read-only console: burns, identity changes and resets are refused');
  }
  document.getElementById('firmware').dataset.ready = 'true';
}

// ---- configuration page (mst config) ------------------------------------------------------------

const valueText = (v) => (v ? v.text : 'N/A');

async function loadConfig() {
  document.getElementById('registers-link').href = '/device?i=' + deviceIndex;
  document.getElementById('flash-link').href = '/flash?i=' + deviceIndex;
  const list = await api('/api/devices');
  let readOnly = true;
  if (list.ok) {
    showMode(list.read_only);
    readOnly = list.read_only;
    const d = list.devices[Number(deviceIndex)];
    if (d) document.getElementById('device-name').textContent = d.name;
  }
  const doc = await api(devicePath() + '/config');
  if (!doc.ok) return setStatus('status', doc.error.message, true);
  const rows = doc.parameters.map((p) => {
    const input = el('input', {size: 12, class: 'new-value', disabled: readOnly});
    input.dataset.name = p.name;
    return el('tr', {class: 'parameter' + (p.pending ? ' attention' : ''), 'data-name': p.name},
      el('td', {class: 'mono'}, p.name), el('td', {}, valueText(p.default)), el('td', {}, valueText(p.current)),
      el('td', {class: 'next'}, valueText(p.next)), el('td', {}, input));
  });
  document.querySelector('#config tbody').replaceChildren(...rows);
  document.getElementById('apply').disabled = readOnly;
  setStatus('status', doc.device_type + ': ' + doc.parameters.length + ' parameters' +
    (readOnly ? ' (read-only console)' : '') + (doc.reads_current ? '' : '; this firmware does not report current values'));
}

async function applyConfig() {
  const set = [...document.querySelectorAll('input.new-value')].filter((i) => i.value.trim())
    .map((i) => i.dataset.name + '=' + i.value.trim());
  if (!set.length) return setStatus('apply-status', 'type a new value first', true);
  if (!confirm('Set ' + set.join(', ') + ' on ' + document.getElementById('device-name').textContent + ' (next boot)?')) return;
  const doc = await postJson(devicePath() + '/config', {set});
  const status = document.getElementById('apply-status');
  status.dataset.state = doc.ok ? 'done' : 'failed';
  if (!doc.ok) return setStatus('apply-status', 'refused: ' + doc.error.message, true);
  setStatus('apply-status', doc.changed.length ? 'written: ' + doc.changed.map((c) => c.name + ' ' + valueText(c.old) + ' → ' +
    valueText(c.new)).join(', ') + ' (at the next reset)' : 'nothing to write: already so');
  await loadConfig();
}

document.addEventListener('DOMContentLoaded', () => {
  const page = document.body.dataset.page;
  if (page === 'flash') loadActions();
  if (page === 'config') {
    document.getElementById('apply').addEventListener('click', applyConfig);
    loadConfig();
  }
});
