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
    drawFour(demo.steps[shown - 1]);
    RD.chart('lat-chart').resize();  // the list beside it may have changed width
  }

  // The textbook split L = L_queue + S/B + D/v + L_process, with L_process in its categories.
  const FOUR = ['queue', 'transmit', 'propagate'];
  function drawFour(step) {
    const led = step.ledger_us;
    const proc = Object.keys(led).filter((c) => !FOUR.includes(c) && led[c] > 0);
    const process = proc.reduce((a, c) => a + led[c], 0);
    const inner = FOUR.map((c) => ({ name: c, value: +led[c].toFixed(4), itemStyle: { color: COLORS[c] } }))
      .concat([{ name: 'process', value: +process.toFixed(4), itemStyle: { color: '#2e3440' } }]);
    const outer = FOUR.map((c) => ({ name: c, value: +led[c].toFixed(4), itemStyle: { color: COLORS[c] } }))
      .concat(proc.map((c) => ({ name: c, value: +led[c].toFixed(4), itemStyle: { color: COLORS[c] } })));
    RD.chart('lat-four').setOption({
      animation: false,
      title: { text: `${step.name}: ${RD.fmt(step.t_avg_us)} µs`, left: 'center', textStyle: { fontSize: 12 } },
      tooltip: { formatter: (p) => `${p.name}: ${RD.fmt(p.value, 4)} µs (${p.percent}%)` },
      series: [{ name: 'components', type: 'pie', radius: [0, '38%'], label: { position: 'inner', fontSize: 10 }, data: inner },
        { name: 'categories', type: 'pie', radius: ['48%', '68%'], label: { fontSize: 10 }, data: outer }],
    }, true);
    const t = document.getElementById('lat-four-table');
    t.innerHTML = '';
    const total = FOUR.reduce((a, c) => a + led[c], 0) + process;
    const row = (name, v, cls) => {
      const tr = RD.el('tr', { 'data-component': name, class: cls || '' });
      tr.append(RD.el('td', {}, name), RD.el('td', { 'data-us': v }, RD.fmt(v, 4) + ' µs'),
        RD.el('td', {}, total > 0 ? RD.fmt(100 * v / total, 1) + '%' : '–'));
      t.appendChild(tr);
    };
    for (const c of FOUR) row(c, led[c]);
    row('process', process);
    for (const c of proc) row(c, led[c], 'sub');
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

  function drawPaths(data, rootId = 'gpu-paths', ends = false) {
    const root = document.getElementById(rootId);
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
      if (ends) div.appendChild(RD.el('div', { class: 'endpoint' }, 'sender\'s application buffer → … → receiver\'s application buffer'));
      div.appendChild(segs);
      root.appendChild(div);
    }
  }

  // One time scale for every dot: the slowest path takes 8 s, the others their share of it, so
  // the dots race as the messages would.
  // The segment the dot is in is marked "now" while it moves.
  function animate(rootId = 'gpu-paths') {
    const paths = [...document.querySelectorAll(`#${rootId} .path`)];
    const longest = Math.max(...paths.map((x) => Number(x.dataset.total)));
    for (const p of paths) {
      const share = Number(p.dataset.total) / longest;
      p.dataset.animMs = Math.round(8000 * share);
      const a = p.querySelector('.dot').animate([{ left: '0%' }, { left: `${100 * share}%` }], { duration: 8000 * share, fill: 'forwards' });
      const segs = [...p.querySelectorAll('.seg')];
      const mark = () => {
        const us = (Number(a.currentTime) / 8000) * longest;  // simulated µs reached
        let at = 0;
        segs.forEach((s) => { const u = Number(s.dataset.us); s.classList.toggle('now', us >= at && us < at + u && a.playState === 'running'); at += u; });
        if (a.playState === 'running') requestAnimationFrame(mark);
      };
      requestAnimationFrame(mark);
    }
  }

  let pipeRequest = 0;
  async function loadPipeline() {
    const mine = ++pipeRequest;
    const data = await RD.api('/api/pipeline?size=' + document.getElementById('pipe-size').value);
    if (mine !== pipeRequest) return;
    RD.clearError();
    drawPaths(data, 'pipe-paths', true);
    const [tcp, rdma] = data.paths.map((p) => p.one_way_us);
    document.getElementById('pipe-figure').textContent =
      `RDMA ${RD.fmt(rdma)} µs vs kernel TCP ${RD.fmt(tcp)} µs one way (${RD.fmt(tcp / rdma, 1)}× faster)`;
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
  document.getElementById('gpu-play').onclick = () => animate('gpu-paths');
  document.getElementById('pipe-play').onclick = () => animate('pipe-paths');
  document.getElementById('pipe-size').onchange = () => loadPipeline().catch((e) => RD.error(e.message));
  RD.ready = Promise.all([loadLatency(), loadPaths(), loadPipeline()]).catch((e) => RD.error(e.message));
})();
