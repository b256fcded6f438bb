// Views 1 and 2: the demo's progressive latency ledger, and the data path segment by segment.
'use strict';
(() => {
  const COLORS = { queue: '#8e99ab', transmit: '#4e79a7', propagate: '#76b7b2', kernel: '#e15759', syscall: '#f28e2b',
    copy: '#edc948', interrupt: '#b07aa1', pcie_dma: '#59a14f', nic: '#2456c5', switch: '#9c755f', gpu: '#ff9da7',
    setup: '#bab0ac', driver: '#86bcb6', recovery: '#d37295' };
  let demo = null, shown = 1;

  function drawLatency() {
    const steps = demo.steps.slice(0, shown);
    const cats = Object.keys(demo.steps[0].ledger_us).filter((c) => demo.steps.some((s) => s.ledger_us[c] > 0));
    RD.chart('lat-chart').setOption({
      animationDuration: 600,
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { top: 0, type: 'scroll' },
      grid: { left: 50, right: 20, top: 50, bottom: 30 },
      xAxis: { type: 'category', data: demo.steps.map((s) => s.name) },
      yAxis: { type: 'value', name: 'µs (one way)' },
      series: cats.map((c) => ({ name: c, type: 'bar', stack: 'ledger', itemStyle: { color: COLORS[c] },
        data: demo.steps.map((s, i) => (i < shown ? +s.ledger_us[c].toFixed(4) : null)) })).concat([{
        name: 't_avg', type: 'scatter', symbolSize: 1, label: { show: true, position: 'top', formatter: (p) => p.value.toFixed(3) + ' µs' },
        data: demo.steps.map((s, i) => (i < shown ? +s.t_avg_us.toFixed(4) : null)), itemStyle: { color: '#000' } }]),
    }, true);
    const ol = document.getElementById('lat-savings');
    ol.innerHTML = '';
    ol.appendChild(RD.el('li', { 'data-step': 0 }, `${demo.steps[0].name}: ${RD.fmt(demo.steps[0].t_avg_us)} µs`));
    steps.slice(1).forEach((s, i) => ol.appendChild(RD.el('li', { 'data-step': i + 1, 'data-saves': s.saves_us },
      `${s.name} saves ${RD.fmt(s.saves_us)} µs (${RD.fmt(s.saves_share_pct, 1)}% of the total saving) → ${RD.fmt(s.t_avg_us)} µs`)));
    if (shown === demo.steps.length)
      ol.appendChild(RD.el('li', { class: 'total' }, `latency cut ${RD.fmt(demo.latency_cut_pct, 1)}%, zero-copy share ${RD.fmt(demo.zero_copy_share_pct, 1)}%`));
    document.querySelectorAll('#lat-steps button').forEach((b, i) => b.classList.toggle('on', i < shown));
  }

  async function loadLatency() {
    demo = await RD.api('/api/demo?size=' + document.getElementById('lat-size').value);
    RD.clearError();
    const box = document.getElementById('lat-steps');
    box.innerHTML = '';
    demo.steps.forEach((s, i) => {
      const b = RD.el('button', { 'data-step': i }, `${i + 1} ${s.name}`);
      b.onclick = () => { shown = i + 1; drawLatency(); };
      box.appendChild(b);
    });
    drawLatency();
  }

  function drawPaths(data) {
    const root = document.getElementById('gpu-paths');
    root.innerHTML = '';
    const longest = Math.max(...data.paths.map((p) => p.one_way_us));
    for (const p of data.paths) {
      const div = RD.el('div', { class: 'path', 'data-total': p.one_way_us });
      div.appendChild(RD.el('div', { class: 'title' }, `${p.name}: ${RD.fmt(p.one_way_us)} µs one way`));
      const segs = RD.el('div', { class: 'segs' });
      for (const s of p.segments) {
        const e = RD.el('div', { class: 'seg', 'data-us': s.us, title: s.stages.map((x) => `${x.label} ${RD.fmt(x.us, 4)} µs`).join('\n') },
          `${s.side}.${s.component} ${RD.fmt(s.us)}`);
        e.style.width = `${(100 * s.us) / longest}%`;
        e.style.background = COLORS[s.category] || '#888';
        segs.appendChild(e);
      }
      segs.appendChild(RD.el('div', { class: 'dot' }));
      div.appendChild(segs);
      root.appendChild(div);
    }
  }

  // One time scale for every dot: the slowest path takes 8 s, the others their share of it, so
  // the dots race as the messages would.
  function animate() {
    const paths = [...document.querySelectorAll('#gpu-paths .path')];
    const longest = Math.max(...paths.map((x) => Number(x.dataset.total)));
    for (const p of paths) {
      const share = Number(p.dataset.total) / longest;
      p.dataset.animMs = Math.round(8000 * share);
      p.querySelector('.dot').animate([{ left: '0%' }, { left: `${100 * share}%` }], { duration: 8000 * share, fill: 'forwards' });
    }
  }

  let pathRequest = 0;  // only the latest request draws (responses may arrive out of order)
  async function loadPaths() {
    const v = (id) => document.getElementById(id).value;
    const gpu = v('gpu-mem') === 'gpu';
    document.getElementById('gpu-topo').disabled = !gpu;
    const mine = ++pathRequest;
    const data = await RD.api(`/api/path?size=${v('gpu-size')}&mem=${v('gpu-mem')}` + (gpu ? `&pcie_topology=${v('gpu-topo')}` : ''));
    if (mine !== pathRequest) return;
    RD.clearError();
    drawPaths(data);
    const fig = document.getElementById('gpu-figure');
    if (gpu) {
      const [direct, staged, piped] = data.paths.map((p) => p.one_way_us);
      fig.textContent = `GPUDirect saves ${RD.fmt(staged - direct)} µs of the staged path's ${RD.fmt(staged)} µs` +
        ` (${RD.fmt(100 * (staged - direct) / staged, 1)}%); pipelining in ${data.chunk} B chunks: ${RD.fmt(piped)} µs`;
    } else {
      fig.textContent = `zero copy saves ${RD.fmt(data.paths[1].one_way_us - data.paths[0].one_way_us)} µs`;
    }
  }

  document.getElementById('lat-next').onclick = () => { shown = shown % demo.steps.length + 1; drawLatency(); };
  document.getElementById('lat-size').onchange = () => loadLatency().catch((e) => RD.error(e.message));
  for (const id of ['gpu-size', 'gpu-mem', 'gpu-topo'])
    document.getElementById(id).onchange = () => loadPaths().catch((e) => RD.error(e.message));
  document.getElementById('gpu-play').onclick = animate;
  RD.ready = Promise.all([loadLatency(), loadPaths()]).catch((e) => RD.error(e.message));
})();
