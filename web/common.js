// Shared helpers of the dashboard: API calls, chart creation, formatting, run streaming.
'use strict';
const RD = {
  charts: {},
  // POST and DELETE say they are JSON: the server refuses any other (no form or no-cors request).
  async api(path, opts = {}) {
    if (opts.method && opts.method !== 'GET') opts = { ...opts, headers: { 'Content-Type': 'application/json', ...(opts.headers || {}) } };
    const r = await fetch(path, opts);
    const j = await r.json();
    if (!r.ok) throw new Error(`${r.status} ${j.key ? j.key + ': ' : ''}${j.error}`);
    return j;
  },
  chart(id) {
    if (!RD.charts[id]) RD.charts[id] = echarts.init(document.getElementById(id), null, { renderer: 'canvas' });
    return RD.charts[id];
  },
  fmt(x, d = 3) { return Number(x).toFixed(d); },
  el(tag, attrs = {}, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  },
  error(msg) {
    const b = document.getElementById('banner');
    b.hidden = false;
    b.textContent = msg;
  },
  // A view calls this when its action succeeds: an earlier error no longer stands.
  clearError() {
    const b = document.getElementById('banner');
    b.hidden = true;
    b.textContent = '';
  },
  presets: [],
  replayMs: 4000,  // the live view replays a run that finished faster than this over this long
  async loadPresets() {
    if (!RD.presets.length) RD.presets = await RD.api('/api/presets');
    return RD.presets;
  },
  // Starts a run and follows its event stream: onSample(sample), resolves with the final run.
  async startRun(body, { query = '', onSample, onId } = {}) {
    const opts = typeof body === 'string' ? { method: 'POST', body: '' } : { method: 'POST', body: JSON.stringify(body) };
    const started = await RD.api('/api/runs' + query, opts);
    if (onId) onId(started.id);
    return new Promise((resolve, reject) => {
      const es = new EventSource(started.events);
      es.addEventListener('sample', (e) => onSample && onSample(JSON.parse(e.data)));
      es.addEventListener('done', async () => {
        es.close();
        try { resolve(await RD.api('/api/runs/' + started.id)); } catch (err) { reject(err); }
      });
      es.onerror = () => { es.close(); reject(new Error('event stream of ' + started.id + ' failed')); };
    });
  },
  presetRun(id) { return `?preset=${encodeURIComponent(id)}`; },
};
window.RD = RD;
if (window.RDMASIM_ECHARTS_MISSING) RD.error('ECharts was not found at build time: run npm ci and rebuild.');
window.addEventListener('resize', () => Object.values(RD.charts).forEach((c) => c.resize()));
