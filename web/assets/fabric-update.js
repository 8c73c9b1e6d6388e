// openflint web console, the Fabric page's updates: choose nodes in the firmware table, burn the
// --images set into them (ibfwmgr update, POST /api/fabric/update) and follow each node's
// progress (/api/jobs/ID). Uses fabric.js's node(), status(), fabricToken, loadFirmware().
'use strict';

// Called by loadFirmware with the inventory: a chooser on each node the images can reach.
function offerUpdates(doc) {
  const controls = document.getElementById('update-controls');
  if (doc.update_images === null || doc.update_images === undefined) return;
  controls.hidden = false;
  for (const row of document.querySelectorAll('#firmware tr.fw-node')) {
    if (!row.dataset.psid) continue;  // no vendor access: nothing to burn
    const box = node('input', {type: 'checkbox', class: 'choose', 'aria-label': 'update ' + row.dataset.name});
    box.dataset.guid = row.dataset.guid;
    box.addEventListener('change', () => {
      document.getElementById('update-button').disabled = !document.querySelector('input.choose:checked');
    });
    row.firstChild.prepend(box, ' ');
  }
  // After an update the table is asked again: its outcome stays on the status line.
  if (!document.getElementById('update-status').dataset.state)
    status('update-status', doc.update_images + ' image(s) to update with: choose nodes');
}

function progressRows(detail) {
  return (detail && detail.nodes ? detail.nodes : []).map((n) => {
    const bar = node('progress', {max: 100, value: n.total ? Math.round((100 * n.done) / n.total) : 0});
    return node('tr', {class: 'update-node', 'data-guid': n.guid, 'data-stage': n.stage},
                node('td', {}, n.system), node('td', {}, n.stage), node('td', {}, bar));
  });
}

async function startUpdate() {
  const chosen = [...document.querySelectorAll('input.choose:checked')];
  const nodes = chosen.map((b) => b.dataset.guid);
  const names = chosen.map((b) => b.closest('tr').dataset.name);
  const reset = document.getElementById('update-reset').checked;
  if (!nodes.length) return;
  if (!confirm('Burn the matching image into ' + names.join(', ') + (reset ? ' and reset them' : '') +
               '? Each keeps its GUIDs; the new firmware runs after a reset.')) return;
  const button = document.getElementById('update-button');
  const statusLine = document.getElementById('update-status');
  button.disabled = true;
  const response = await fetch('/api/fabric/update', {method: 'POST', credentials: 'same-origin',
    headers: {'X-Openflint-Token': fabricToken, 'Content-Type': 'application/json'}, body: JSON.stringify({nodes, reset})});
  const started = await response.json().catch(() => ({ok: false, error: {message: response.statusText}}));
  if (!started.ok) {
    statusLine.dataset.state = 'failed';
    button.disabled = false;
    return status('update-status', 'refused: ' + started.error.message, true);
  }
  const table = document.getElementById('update-progress');
  table.hidden = false;
  statusLine.dataset.state = 'running';
  let job;
  for (;;) {
    job = await fabricApi('/api/jobs/' + started.job);
    if (!job.ok) break;
    table.querySelector('tbody').replaceChildren(...progressRows(job.detail));
    status('update-status', job.what + ': ' + job.stage + ' (' + job.done + '/' + job.total + ' nodes)');
    if (job.state !== 'running') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  statusLine.dataset.state = job.state || 'failed';
  button.disabled = false;
  if (job.state !== 'done') return status('update-status', 'failed: ' + (job.error ? job.error.error.message : job.error?.message || ''), true);
  const counts = {};
  for (const u of job.result.nodes || []) counts[u.status] = (counts[u.status] || 0) + 1;
  status('update-status', 'done in ' + job.seconds.toFixed(1) + ' s: ' +
         Object.entries(counts).map(([k, v]) => v + ' ' + k).join(', '));
  loadFirmware(true);
}

document.addEventListener('DOMContentLoaded', () => {
  document.getElementById('update-button').addEventListener('click', startUpdate);
});
