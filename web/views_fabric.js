// View 3: a fat-tree, a host pair's equal-cost paths, and per-link utilisation heat of a
// permutation run hashed per flow (ECMP) and sprayed per packet, side by side.
'use strict';
(() => {
  let topo = null;
  const $ = (id) => document.getElementById(id);

  function layout(t) {
    const tiers = {};
    for (const n of t.nodes) (tiers[n.tier] = tiers[n.tier] || []).push(n);
    const pos = {};
    for (const [tier, list] of Object.entries(tiers))
      list.forEach((n, i) => { pos[n.name] = [(i + 0.5) * (1000 / list.length), (3 - Number(tier)) * 110]; });
    return pos;
  }

  function heatColor(u) {
    const x = Math.max(0, Math.min(1, u));
    return `rgb(${Math.round(200 + 55 * x)},${Math.round(210 - 190 * x)},${Math.round(225 - 205 * x)})`;
  }

  function graph(id, t, edgeStyle, title) {
    const pos = layout(t);
    const small = t.nodes.length > 60;
    RD.chart(id).setOption({
      title: { text: title || '', left: 'center', textStyle: { fontSize: 12 } },
      tooltip: { formatter: (p) => (p.dataType === 'edge' ? p.data.tip : p.name) },
      series: [{
        type: 'graph', layout: 'none', roam: true, animation: false,
        label: { show: !small, fontSize: 9 }, symbolSize: small ? 6 : 12,
        data: t.nodes.map((n) => ({ name: n.name, x: pos[n.name][0], y: pos[n.name][1],
          itemStyle: { color: n.tier === 0 ? '#4e79a7' : ['#4e79a7', '#59a14f', '#f28e2b', '#e15759'][n.tier] } })),
        links: t.link_list.map((l, i) => Object.assign({ source: l.a, target: l.b }, edgeStyle(l, i))),
      }],
    }, true);
  }

  function onPath(t) {
    const set = new Set();
    for (const p of t.paths) for (let i = 0; i + 1 < p.route.length; ++i) set.add([p.route[i], p.route[i + 1]].sort().join('|'));
    return set;
  }

  function drawTopology() {
    const on = onPath(topo);
    graph('fab-chart', topo, (l) => {
      const hit = on.has([l.a, l.b].sort().join('|'));
      return { tip: `${l.a} – ${l.b}${hit ? ' (on an equal-cost path)' : ''}`, onpath: hit,
        lineStyle: { color: hit ? '#e15759' : '#c9ced8', width: hit ? 3 : 1 } };
    }, `${topo.from_name} → ${topo.to_name}: ${topo.paths.length} equal-cost paths`);
    const p = topo.paths[0];
    $('fab-hops').textContent = `${topo.paths.length} equal-cost paths, ${p.links} links / ${p.switches} switches each, ` +
      `${(p.one_way_ps / 1e6).toFixed(3)} µs one way unloaded`;
    $('fab-hops').dataset.paths = topo.paths.length;
    $('fab-hops').dataset.links = p.links;
    // Every host pair's shortest path length (links), and the bisection bandwidth.
    const hops = Object.keys(topo.hop_histogram).map(Number).sort((a, b) => a - b);
    RD.chart('fab-hist').setOption({
      title: { text: `host pairs by links on their shortest path (k = ${$('fab-k').value})`, textStyle: { fontSize: 12 } },
      tooltip: { trigger: 'axis' }, grid: { left: 60, right: 16, top: 34, bottom: 28 }, animation: false,
      xAxis: { type: 'category', name: 'links', data: hops.map(String) }, yAxis: { type: 'value', name: 'pairs' },
      series: [{ type: 'bar', data: hops.map((h) => topo.hop_histogram[h]), itemStyle: { color: '#4e79a7' } }],
    }, true);
    $('fab-bisection').textContent = `${(topo.bisection_bps / 1e12).toFixed(2)} Tb/s (${topo.hosts} hosts)`;
    $('fab-bisection').dataset.bps = topo.bisection_bps;
  }

  async function loadTopology(keepPair) {
    const k = $('fab-k').value;
    const hosts = (k * k * k) / 4;
    const from = keepPair ? $('fab-from').value : 'h0', to = keepPair ? $('fab-to').value : `h${hosts - 1}`;
    topo = await RD.api(`/api/topology?k=${k}&from=${from}&to=${to}`);
    if (!keepPair) for (const id of ['fab-from', 'fab-to']) {
      const s = $(id);
      s.innerHTML = '';
      for (let h = 0; h < hosts; ++h) s.appendChild(RD.el('option', {}, `h${h}`));
    }
    $('fab-from').value = topo.from_name;
    $('fab-to').value = topo.to_name;
    RD.clearError();
    drawTopology();
    if (!keepPair) for (const r of ['ecmp', 'spray']) {  // the heat maps belonged to the old k
      RD.chart(`fab-${r}`).clear();
      delete heatDrawn[`fab-${r}`];
      const sum = $(`fab-${r}-sum`);
      sum.textContent = '';
      delete sum.dataset.run;
      delete sum.dataset.aggregate;
    }
  }

  // The first draw lays the graph out; later ones (live samples) change only the links' colours.
  const heatDrawn = {};
  function drawHeat(id, util, label) {
    const perLink = topo.link_list.map((l, i) => Math.max(util[2 * i] || 0, util[2 * i + 1] || 0));
    const style = (l, i) => ({ tip: `${l.a} – ${l.b}: ${(100 * perLink[i]).toFixed(1)}% busy`, util: perLink[i],
      lineStyle: { color: heatColor(perLink[i]), width: 1 + 4 * Math.min(1, perLink[i]) } });
    if (heatDrawn[id] !== topo) {
      graph(id, topo, style, label);
      heatDrawn[id] = topo;
      return;
    }
    RD.chart(id).setOption({ title: { text: label },
      series: [{ links: topo.link_list.map((l, i) => Object.assign({ source: l.a, target: l.b }, style(l, i))) }] });
  }

  async function runPair() {
    const k = Number($('fab-k').value);
    const runs = ['ecmp', 'spray'].map((routing) => {
      const scenario = { name: `k=${k} permutation, ${routing}`, command: 'bw', seed: 3,
        workload: { pattern: 'permutation', size: '64KiB', iters: 20, tx_depth: 8 },
        network: { topology: 'fat-tree', k, routing } };
      if (routing === 'spray') scenario.params = { rc: { ooo_placement: true } };
      let latest = null;  // redrawn once a frame, not once a sample
      const draw = () => { if (latest) drawHeat(`fab-${routing}`, latest.utilisation, `live, t = ${latest.t_us.toFixed(1)} µs`); latest = null; };
      return RD.startRun(scenario, { onSample: (s) => { if (!s.utilisation) return; if (!latest) requestAnimationFrame(draw); latest = s; } })
        .then((run) => {
          latest = null;
          const util = run.ports.map((p) => p.utilisation);
          drawHeat(`fab-${routing}`, util, 'utilisation over the run');
          const sum = $(`fab-${routing}-sum`);
          sum.textContent = `aggregate ${run.metrics.aggregate_Gbps.toFixed(1)} Gb/s (${(100 * run.metrics.share_of_ideal).toFixed(1)}% of ideal)`;
          sum.dataset.aggregate = run.metrics.aggregate_Gbps;
          sum.dataset.run = run.id;
          return run;
        });
    });
    const done = await Promise.all(runs);
    RD.clearError();
    return done;
  }

  $('fab-k').onchange = () => loadTopology(false).catch((e) => RD.error(e.message));
  $('fab-from').onchange = $('fab-to').onchange = () => loadTopology(true).catch((e) => RD.error(e.message));
  $('fab-run').onclick = () => runPair().catch((e) => RD.error(e.message));
  RD.fabricReady = loadTopology(false).catch((e) => RD.error(e.message));
})();
