// Views 4 and 5: live curves of a run over SSE, and 2-4 schemes compared side by side.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  let liveId = null;

  function lineChart(id, title, yName, names) {
    RD.chart(id).setOption({
      title: { text: title, textStyle: { fontSize: 12 } }, tooltip: { trigger: 'axis' }, legend: { right: 0, top: 0 },
      grid: { left: 60, right: 16, top: 34, bottom: 28 }, animation: false,
      xAxis: { type: 'value', name: 'µs', nameGap: 4 }, yAxis: { type: 'value', name: yName },
      series: names.map((n) => ({ name: n, type: 'line', showSymbol: false, data: [] })),
    }, true);
  }

  function resetLive() {
    lineChart('live-tput', 'throughput (completed payload)', 'Gb/s', ['Gb/s']);
    lineChart('live-lat', 'message latency (post to completion)', 'µs', ['p50', 'p99']);
    lineChart('live-queue', 'egress queue depth (mean over the slice)', 'bytes', ['deepest port', 'watched port']);
    lineChart('live-pfc', 'PFC pause frames sent', 'frames', ['per slice']);
  }

  // The watch port is one of the preset's own fabric ports (none without a switched network).
  function offerPorts() {
    const p = RD.presets.find((x) => x.id === $('live-preset').value), sel = $('live-port');
    sel.innerHTML = '';
    sel.appendChild(RD.el('option', { value: '' }, p && p.ports.length ? '(none)' : '(no switched network)'));
    for (const name of (p ? p.ports : [])) sel.appendChild(RD.el('option', { value: name }, name));
    sel.value = p && p.ports.length ? p.ports[0] : '';
    sel.disabled = !(p && p.ports.length);
  }

  async function startLive() {
    const id = $('live-preset').value, port = $('live-port').value;
    const st = $('live-status');
    st.textContent = 'starting…';
    for (const k of ['samples', 'status', 'run', 'messages', 'replay', 'shown']) delete st.dataset[k];
    resetLive();
    const samples = [];
    let pending = false;
    // The curves from the first k samples.
    const draw = (k) => {
      const data = { tput: [], p50: [], p99: [], q: [], wq: [], pfc: [] };
      for (const s of samples.slice(0, k)) {
        data.tput.push([s.t_us, s.gbps]);
        if (s.messages > 0) { data.p50.push([s.t_us, s.p50_us]); data.p99.push([s.t_us, s.p99_us]); }
        data.q.push([s.t_us, s.queue_bytes]);
        if (s.watch) data.wq.push([s.t_us, Object.values(s.watch)[0].queue_bytes]);
        data.pfc.push([s.t_us, s.pause_frames]);
      }
      RD.chart('live-tput').setOption({ series: [{ data: data.tput }] });
      RD.chart('live-lat').setOption({ series: [{ data: data.p50 }, { data: data.p99 }] });
      RD.chart('live-queue').setOption({ series: [{ data: data.q }, { data: data.wq }] });
      RD.chart('live-pfc').setOption({ series: [{ data: data.pfc }] });
      st.dataset.shown = k;
    };
    const flush = () => {
      pending = false;
      draw(samples.length);
      st.textContent = `running: ${samples.length} samples received`;
    };
    $('live-cancel').disabled = false;
    const query = RD.presetRun(id) + (port ? `&ports=${encodeURIComponent(port)}` : '');
    const t0 = performance.now();
    try {
      const run = await RD.startRun('', { query, onId: (x) => { liveId = x; }, onSample: (s) => {
        samples.push(s);
        if (!pending) { pending = true; requestAnimationFrame(flush); }
      } });
      const n = samples.length, wall = performance.now() - t0;
      if (run.last_message_us > 0) for (const id of ['live-tput', 'live-lat', 'live-queue', 'live-pfc'])  // timers may outlive the traffic
        RD.chart(id).setOption({ xAxis: { max: Math.ceil(run.last_message_us * 1.05) } });
      // A run faster than the replay time is replayed, labelled so, for the curves to be seen growing.
      if (n > 1 && wall < RD.replayMs) {
        const label = `replay of a run that took ${(wall / 1000).toFixed(2)} s of wall time: ${n} samples over ${(RD.replayMs / 1000).toFixed(1)} s`;
        st.textContent = label;
        st.dataset.replay = 1;
        await new Promise((resolve) => {
          const r0 = performance.now();
          const step = () => {
            const k = Math.min(n, Math.ceil((n * (performance.now() - r0)) / RD.replayMs));
            draw(k);
            st.textContent = `${label} (${k} shown)`;
            if (k < n) requestAnimationFrame(step); else resolve();
          };
          requestAnimationFrame(step);
        });
      } else {
        delete st.dataset.replay;
        draw(n);
      }
      RD.clearError();
      st.textContent = (st.dataset.replay ? 'replayed, ' : '') + `${run.status}: ${n} samples received, ${run.messages ?? 0} messages, ${(run.sim_time_us ?? 0).toFixed(1)} µs simulated` +
        (run.error ? ` — ${run.error}` : '') + (run.last_message_us > 0 ? ` (last completion at ${run.last_message_us.toFixed(1)} µs)` : '');
      Object.assign(st.dataset, { samples: n, status: run.status, run: run.id, messages: run.messages ?? 0 });
    } catch (e) {
      st.textContent = `failed: ${e.message}`;
      st.dataset.status = 'error';
      throw e;
    } finally {
      $('live-cancel').disabled = true;
    }
  }

  // Throughput-like metrics are better higher; times, drops and pauses better lower.
  const higherIsBetter = (m) => /(_Gbps|_Mpps|_MBps|share_of_ideal|goodput|efficiency)$/.test(m);

  function pickers(presets) {
    const box = $('cmp-picks');
    const add = (value) => {
      if (box.children.length >= 4) return;
      const wrap = RD.el('span', { class: 'cmp-scheme' });
      const s = RD.el('select', { class: 'cmp-pick' });
      for (const p of presets) s.appendChild(RD.el('option', { value: p.id }, `${p.id} (${p.command})`));
      s.value = value;
      const x = RD.el('button', { class: 'cmp-remove', title: 'remove this scheme' }, '×');
      x.onclick = () => { if (box.children.length > 2) wrap.remove(); };
      wrap.append(s, x);
      box.appendChild(wrap);
    };
    add('tcp-baseline');
    add('kernel-bypass-off');
    $('cmp-add').onclick = () => add(presets[0].id);
  }

  async function compare() {
    const ids = [...document.querySelectorAll('.cmp-pick')].map((s) => s.value);
    $('cmp-status').textContent = `running ${ids.length} schemes…`;
    const runs = await Promise.all(ids.map((id) => RD.startRun('', { query: RD.presetRun(id) })));
    const bad = runs.find((r) => r.status !== 'done');
    if (bad) throw new Error(`${bad.id}: ${bad.status} ${bad.error || ''}`);
    const names = Object.keys(runs[0].metrics).filter((m) => runs.every((r) => m in r.metrics) && runs.some((r) => r.metrics[m] !== 0));
    const t = $('cmp-table');
    t.innerHTML = '';
    RD.clearError();
    if (!names.length) {
      RD.chart('cmp-chart').clear();
      $('cmp-status').textContent = `these schemes share no metric (${[...new Set(runs.map((r) => r.command))].join(' vs ')}): ` +
        'compare schemes of one kind';
      $('cmp-status').dataset.done = 0;
      return;
    }
    const head = RD.el('tr');
    head.appendChild(RD.el('th', {}, 'metric'));
    ids.forEach((id, i) => head.appendChild(RD.el('th', { 'data-run': runs[i].id }, id)));
    t.appendChild(head);
    for (const m of names) {
      const tr = RD.el('tr', { 'data-metric': m });
      tr.appendChild(RD.el('td', {}, m));
      runs.forEach((r, i) => {
        const v = r.metrics[m], first = runs[0].metrics[m];
        const delta = i > 0 && first !== 0 ? ` (${v >= first ? '+' : ''}${(100 * (v - first) / Math.abs(first)).toFixed(1)}%)` : '';
        const better = higherIsBetter(m) ? v > first : v < first;
        const td = RD.el('td', { 'data-value': v, class: delta && v !== first ? (better ? 'better' : 'worse') : '' }, v.toFixed(3) + delta);
        tr.appendChild(td);
      });
      t.appendChild(tr);
    }
    delete $('cmp-status').dataset.slowdown;
    if (runs.every((r) => r.slowdown)) {  // open-loop flows: FCT slowdown per flow size, one series per scheme
      slowdownChart(ids, runs);
      $('cmp-status').textContent = `${ids.length} schemes compared: FCT slowdown vs flow size`;
      $('cmp-status').dataset.done = ids.length;
      return;
    }
    const shown = names.filter((m) => m.endsWith('_us') || m.endsWith('_Gbps')).slice(0, 12);
    RD.chart('cmp-chart').setOption({
      tooltip: { trigger: 'axis' }, legend: { top: 0 }, grid: { left: 150, right: 20, top: 30, bottom: 20 },
      yAxis: { type: 'category', data: shown, inverse: true }, xAxis: { type: 'value' },
      series: runs.map((r, i) => ({ name: ids[i], type: 'bar', data: shown.map((m) => +r.metrics[m].toFixed(4)) })),
    }, true);
    $('cmp-status').textContent = `${ids.length} schemes compared`;
    $('cmp-status').dataset.done = ids.length;
  }

  // The size buckets (not the short/long/all summaries): p99 as bars, p50 as a line, per scheme.
  function slowdownChart(ids, runs) {
    const buckets = runs[0].slowdown.filter((b) => !/^(short|long|all)/.test(b.bucket));
    const cats = buckets.map((b) => b.bucket);
    const at = (r, name, k) => { const b = r.slowdown.find((x) => x.bucket === name); return b && b.flows > 0 ? +b[k].toFixed(3) : null; };
    RD.chart('cmp-chart').setOption({
      title: { text: 'FCT slowdown vs flow size (bars p99, lines p50)', textStyle: { fontSize: 12 } }, animation: false,
      tooltip: { trigger: 'axis' }, legend: { bottom: 0 }, grid: { left: 50, right: 20, top: 40, bottom: 60 },
      xAxis: { type: 'category', data: cats }, yAxis: { type: 'value', name: 'slowdown' },
      series: runs.flatMap((r, i) => [
        { name: `${ids[i]} p99`, type: 'bar', data: cats.map((c) => at(r, c, 'p99')) },
        { name: `${ids[i]} p50`, type: 'line', data: cats.map((c) => at(r, c, 'p50')) },
      ]),
    }, true);
    $('cmp-status').dataset.slowdown = cats.length;
  }

  RD.runsReady = RD.loadPresets().then((presets) => {
    const sel = $('live-preset');
    for (const p of presets.filter((x) => x.command === 'bw')) sel.appendChild(RD.el('option', { value: p.id }, `${p.id}: ${p.name}`));
    sel.value = 'incast-pfc';
    sel.onchange = offerPorts;
    offerPorts();
    resetLive();
    pickers(presets);
  }).catch((e) => RD.error(e.message));
  $('live-start').onclick = () => startLive().catch((e) => RD.error(e.message));
  $('live-cancel').onclick = () => liveId && RD.api('/api/runs/' + liveId, { method: 'DELETE' }).catch(() => {});
  $('cmp-run').onclick = () => compare().catch((e) => RD.error(e.message));
})();
