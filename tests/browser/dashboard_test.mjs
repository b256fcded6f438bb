// Browser test of `rdmasim serve`: starts the server on a free loopback port, drives Debian's
// chromium (headless, through npm playwright-core) through the five views, checks what they
// render against the API's numbers and that the page logs no errors, and saves screenshots.
// Usage: node dashboard_test.mjs RDMASIM_BINARY OUT_DIR   (exit 77: chromium/playwright missing)
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';

const [binary, outDir] = process.argv.slice(2);
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const require = createRequire(import.meta.url);
let playwright;
try {
  playwright = require(path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../node_modules/playwright-core'));
} catch {
  console.log('SKIP: node_modules/playwright-core is missing (npm ci)');
  process.exit(77);
}
if (!existsSync(chromium)) {
  console.log(`SKIP: ${chromium} is missing (apt-get install chromium)`);
  process.exit(77);
}
mkdirSync(outDir, { recursive: true });

const server = spawn(binary, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
process.on('exit', () => server.kill('SIGTERM'));
const base = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
    if (m) resolve(`http://127.0.0.1:${m[1]}`);
  });
  server.on('exit', (c) => reject(new Error(`server exited ${c}`)));
  setTimeout(() => reject(new Error('server did not start')), 10000);
});
const api = async (p) => { const r = await fetch(base + p); assert.equal(r.status, 200, p); return r.json(); };
const near = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b)), `${what}: page ${a} vs API ${b}`);

const profile = mkdtempSync(path.join(tmpdir(), 'rdmasim-chromium-'));
const browser = await playwright.chromium.launchPersistentContext(profile, {
  executablePath: chromium, headless: true, viewport: { width: 1400, height: 1000 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run'],
});
const errors = [];
let failed = false;
try {
  const page = await browser.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(base + '/');
  await page.waitForFunction(() => window.RD && RD.ready && RD.fabricReady && RD.runsReady);
  await page.evaluate(() => Promise.all([RD.ready, RD.fabricReady, RD.runsReady]));
  const option = (id) => page.evaluate((i) => RD.charts[i].getOption(), id);

  // 1. Latency decomposition: step through; the bars are the demo's ledger.
  const demo = await api('/api/demo?size=2');
  for (let i = 0; i < demo.steps.length; ++i) {
    await page.click(`#lat-steps button[data-step="${i}"]`);
    const o = await option('lat-chart');
    const shown = o.series[0].data.filter((v) => v !== null && v !== '-').length;
    assert.equal(shown, i + 1, `step ${i + 1}: bars shown`);
    assert.equal(await page.locator('#lat-savings li[data-step]').count(), i + 1);
  }
  const lat = await option('lat-chart');
  for (const s of lat.series.filter((x) => x.stack === 'ledger'))
    s.data.forEach((v, i) => near(v, +demo.steps[i].ledger_us[s.name].toFixed(4), `ledger ${s.name} step ${i}`));
  for (let i = 1; i < demo.steps.length; ++i) {
    const text = await page.locator(`#lat-savings li[data-step="${i}"]`).textContent();
    assert.ok(text.includes(`saves ${demo.steps[i].saves_us.toFixed(3)} µs`), text);
  }
  // The four components of the step shown (the last): process is everything but queue, transmit, propagate.
  const last = demo.steps[demo.steps.length - 1].ledger_us;
  const four = Object.fromEntries(await page.locator('#lat-four-table tr[data-component]').evaluateAll((trs) =>
    trs.map((tr) => [tr.dataset.component, Number(tr.querySelector('td[data-us]').dataset.us)])));
  const processUs = Object.entries(last).filter(([c]) => !['queue', 'transmit', 'propagate'].includes(c)).reduce((a, [, v]) => a + v, 0);
  for (const c of ['queue', 'transmit', 'propagate']) near(four[c], last[c], `four components: ${c}`);
  near(four.process, processUs, 'four components: process');
  for (const [c, v] of Object.entries(last)) if (v > 0 && !['queue', 'transmit', 'propagate'].includes(c)) near(four[c], v, `process: ${c}`);
  const inner = (await option('lat-four')).series[0].data.map((d) => d.name);
  assert.deepEqual(inner, ['queue', 'transmit', 'propagate', 'process']);
  await page.click('#lat-steps button[data-step="0"]');
  assert.match((await option('lat-four')).title[0].text, new RegExp(`^${demo.steps[0].name}:`));
  await page.click(`#lat-steps button[data-step="${demo.steps.length - 1}"]`);
  console.log(`view 1: ${demo.steps.map((s) => `${s.name} ${s.t_avg_us.toFixed(3)} us`).join(', ')}`);
  await page.locator('#latency').screenshot({ path: path.join(outDir, 'view1-latency.png') });

  // 1b. Processing pipeline: kernel TCP vs RDMA, boxes as wide as their share, the stage lit as the dot passes.
  const pipe = await api('/api/pipeline?size=4096');
  const pt = await page.locator('#pipe-paths .path').evaluateAll((ps) => ps.map((p) => Number(p.dataset.total)));
  assert.equal(pt.length, 2);
  pt.forEach((t, i) => near(t, pipe.paths[i].one_way_us, `pipeline ${i} total`));
  assert.ok(pt[1] < pt[0], 'RDMA is faster than kernel TCP');
  const widths = await page.locator('#pipe-paths .path').nth(0).locator('.seg').evaluateAll((ss) => ss.map((x) => [parseFloat(x.style.width), Number(x.dataset.us)]));
  for (const [w, us] of widths) assert.ok(Math.abs(w - (100 * us) / pt[0]) < 1e-3, `pipeline box width ${w}% for ${us} us`);  // CSS keeps 6 digits
  const stages = await page.locator('#pipe-paths .path').nth(0).locator('.seg').allTextContents();
  assert.ok(stages[0].startsWith('A.kernel') && stages.some((x) => x.startsWith('A.copy')) && stages.some((x) => x.startsWith('A.pcie')) &&
    stages.some((x) => x.startsWith('A.nic')) && stages.some((x) => x.startsWith('A.link')) && stages[stages.length - 1].startsWith('B.kernel'),
  stages.join(' | '));
  await page.click('#pipe-play');
  await page.waitForFunction(() => document.querySelectorAll('#pipe-paths .path').length === 2 &&
    [...document.querySelectorAll('#pipe-paths .path')].every((p) => p.querySelector('.seg.now')));
  console.log(`view 1b: one way at 4 KiB, kernel TCP ${pt[0].toFixed(3)} us in ${stages.length} stages, RDMA ${pt[1].toFixed(3)} us`);
  await page.locator('#pipeline').screenshot({ path: path.join(outDir, 'view1b-pipeline.png') });

  // 2. Data path: GPUDirect vs CPU-staged between GPU buffers (1 MiB), totals from the budget.
  const pv = await api('/api/path?size=1048576&mem=gpu&pcie_topology=switch');
  let totals = await page.locator('#gpu-paths .path').evaluateAll((ps) => ps.map((p) => Number(p.dataset.total)));
  assert.equal(totals.length, 3);
  totals.forEach((t, i) => near(t, pv.paths[i].one_way_us, `path ${i} total`));
  assert.ok(totals[0] < totals[2] && totals[2] < totals[1], `GPUDirect < pipelined < staged: ${totals}`);
  assert.match(await page.locator('#gpu-figure').textContent(), /GPUDirect saves/);
  const gpuSegs = await page.locator('#gpu-paths .path').nth(1).locator('.seg').allTextContents();
  assert.ok(gpuSegs[0].startsWith('A.gpu') && gpuSegs[gpuSegs.length - 1].startsWith('B.gpu'), gpuSegs.join(' | '));
  await page.selectOption('#gpu-topo', 'cross-socket');
  const pvx = await api('/api/path?size=1048576&mem=gpu&pcie_topology=cross-socket');
  await page.waitForFunction((t) => Math.abs(Number(document.querySelector('#gpu-paths .path').dataset.total) - t) < 1e-6,
    pvx.paths[0].one_way_us);
  console.log(`view 2: GPUDirect ${totals[0].toFixed(3)} us (cross-socket ${pvx.paths[0].one_way_us.toFixed(3)}), ` +
    `pipelined ${totals[2].toFixed(3)} us, staged ${totals[1].toFixed(3)} us one way at 1 MiB`);
  await page.selectOption('#gpu-topo', 'switch');
  await page.waitForFunction((t) => Math.abs(Number(document.querySelector('#gpu-paths .path').dataset.total) - t) < 1e-6,
    pv.paths[0].one_way_us);
  await page.selectOption('#gpu-mem', 'host');
  await page.waitForFunction(() => document.querySelectorAll('#gpu-paths .path').length === 2);
  const hv = await api('/api/path?size=1048576&mem=host');
  totals = await page.locator('#gpu-paths .path').evaluateAll((ps) => ps.map((p) => Number(p.dataset.total)));
  totals.forEach((t, i) => near(t, hv.paths[i].one_way_us, `host path ${i} total`));
  await page.selectOption('#gpu-mem', 'gpu');
  await page.waitForFunction(() => document.querySelectorAll('#gpu-paths .path').length === 3);
  await page.click('#gpu-play');
  // One time scale: the slowest dot takes 8 s, each other its path's share of it.
  const anim = await page.locator('#gpu-paths .path').evaluateAll((ps) => ps.map((p) => [Number(p.dataset.total), Number(p.dataset.animMs)]));
  const slowest = Math.max(...anim.map((a) => a[0]));
  for (const [t, ms] of anim) assert.equal(ms, Math.round(8000 * t / slowest), `dot time of a ${t} us path`);
  await page.locator('#gpu').screenshot({ path: path.join(outDir, 'view2-path.png') });

  // 3. Fat-tree: pick a host pair, its equal-cost paths are highlighted; ECMP vs spray heat.
  await page.selectOption('#fab-to', 'h5');
  await page.waitForFunction(() => document.getElementById('fab-hops').textContent.includes('equal-cost') &&
    RD.charts['fab-chart'].getOption().title[0].text.startsWith('h0 → h5'));
  const topo = await api('/api/topology?k=4&from=h0&to=h5');
  assert.equal(Number(await page.getAttribute('#fab-hops', 'data-paths')), topo.paths.length);
  assert.equal(Number(await page.getAttribute('#fab-hops', 'data-links')), topo.paths[0].links);
  const links = new Set();
  for (const p of topo.paths) for (let i = 0; i + 1 < p.route.length; ++i) links.add([p.route[i], p.route[i + 1]].sort().join('|'));
  const fab = await option('fab-chart');
  const hist = await option('fab-hist');
  const hops = Object.keys(topo.hop_histogram).map(Number).sort((a, b) => a - b);
  assert.deepEqual(hist.xAxis[0].data, hops.map(String));
  assert.deepEqual(hist.series[0].data, hops.map((h) => topo.hop_histogram[h]));
  assert.equal(Number(await page.getAttribute('#fab-bisection', 'data-bps')), topo.bisection_bps);
  const lit = fab.series[0].links.filter((l) => l.onpath).map((l) => [l.source, l.target].sort().join('|'));
  assert.deepEqual(new Set(lit), links);
  // The k=8 run: a heat map is redrawn at most once a frame however fast samples come. Each
  // chart's setOption and each sample received is stamped with the animation frame it fell in.
  await page.selectOption('#fab-k', '8');
  await page.waitForFunction(() => RD.charts['fab-chart'].getOption().title[0].text.startsWith('h0 → h127'));
  await page.evaluate(() => {
    window.frame = 0; window.gaps = []; window.draws = { 'fab-ecmp': [], 'fab-spray': [] }; window.samples = [];
    let last = performance.now();
    const tick = (t) => { window.frame += 1; window.gaps.push(t - last); last = t; if (!window.stopGaps) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    for (const id of Object.keys(window.draws)) {
      const c = RD.chart(id); const set = c.setOption.bind(c);
      c.setOption = (opt, ...rest) => { window.draws[id].push([window.frame, (opt.title && opt.title.text) || '']); return set(opt, ...rest); };
    }
    const add = EventSource.prototype.addEventListener;
    EventSource.prototype.addEventListener = function (type, fn, ...rest) {
      const counted = type === 'sample' ? (e) => { window.samples.push(window.frame); return fn(e); } : fn;
      return add.call(this, type, counted, ...rest);
    };
  });
  await page.click('#fab-run');
  await page.waitForFunction(() => document.getElementById('fab-ecmp-sum').dataset.run && document.getElementById('fab-spray-sum').dataset.run,
    null, { timeout: 120000 });
  const frames = await page.evaluate(() => { window.stopGaps = true; return { gaps: window.gaps, draws: window.draws, samples: window.samples, frame: window.frame }; });
  for (const [id, draws] of Object.entries(frames.draws)) {
    const live = draws.filter(([, title]) => title.startsWith('live'));
    assert.equal(new Set(live.map(([f]) => f)).size, live.length, `${id}: two live redraws in one frame`);
    assert.equal(draws.at(-1)[1], 'utilisation over the run', `${id}: the last redraw shows the whole run`);
  }
  const liveDraws = Object.values(frames.draws).flat().filter(([, t]) => t.startsWith('live')).length;
  assert.ok(frames.samples.length > 0 && liveDraws > 0, 'the k=8 runs streamed samples and drew them live');
  // The longest frame is a figure of this machine (the server simulates on the browser's cores);
  // only a frozen page (a whole second) fails. RDMASIM_FRAME_LIMIT_MS raises it under sanitizers.
  const longestFrame = Math.max(...frames.gaps);
  console.log(`view 3: k=8 ECMP and spray runs, ${frames.samples.length} samples drawn in ${liveDraws} live redraws over ${frames.frame} frames, longest frame ${longestFrame.toFixed(0)} ms`);
  const frameLimit = Number(process.env.RDMASIM_FRAME_LIMIT_MS || 1000);
  assert.ok(longestFrame < frameLimit, `longest frame ${longestFrame} ms during the k=8 run (limit ${frameLimit} ms)`);
  // Changing k clears the old k's heat maps.
  await page.selectOption('#fab-k', '4');
  await page.waitForFunction(() => RD.charts['fab-chart'].getOption().title[0].text.startsWith('h0 → h15'));
  assert.equal(await page.getAttribute('#fab-ecmp-sum', 'data-run'), null);
  assert.equal(((await option('fab-ecmp')).series || []).length, 0, 'heat map cleared with k');
  await page.selectOption('#fab-to', 'h5');
  await page.waitForFunction(() => RD.charts['fab-chart'].getOption().title[0].text.startsWith('h0 → h5'));
  await page.click('#fab-run');
  await page.waitForFunction(() => document.getElementById('fab-ecmp-sum').dataset.run && document.getElementById('fab-spray-sum').dataset.run,
    null, { timeout: 60000 });
  for (const r of ['ecmp', 'spray']) {
    const run = await api('/api/runs/' + (await page.getAttribute(`#fab-${r}-sum`, 'data-run')));
    near(Number(await page.getAttribute(`#fab-${r}-sum`, 'data-aggregate')), run.metrics.aggregate_Gbps, `${r} aggregate`);
    const heat = (await option(`fab-${r}`)).series[0].links;
    heat.forEach((l, i) => near(l.util, Math.max(run.ports[2 * i].utilisation, run.ports[2 * i + 1].utilisation), `${r} link ${i}`));
    console.log(`view 3: ${r} aggregate ${run.metrics.aggregate_Gbps.toFixed(2)} Gb/s`);
  }
  await page.locator('#fabric').screenshot({ path: path.join(outDir, 'view3-fabric.png') });

  // 4. Live curves: every listed scenario runs, watching one of its own ports (if it has any).
  const presets = await api('/api/presets');
  const listed = await page.locator('#live-preset option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(listed.length >= 10, `${listed.length} live scenarios`);
  await page.evaluate(() => { RD.replayMs = 200; });  // quick replays for the sweep
  for (const id of listed) {
    if (id === 'incast-pfc') continue;  // checked in full below
    await page.selectOption('#live-preset', id);
    const ports = await page.locator('#live-port option').evaluateAll((os) => os.map((o) => o.value).filter((v) => v));
    assert.deepEqual(ports, presets.find((p) => p.id === id).ports, `${id}: the ports offered`);
    await page.click('#live-start');
    await page.waitForFunction(() => document.getElementById('live-status').dataset.status, null, { timeout: 60000 });
    assert.equal(await page.getAttribute('#live-status', 'data-status'), 'done', `${id}: ${await page.locator('#live-status').textContent()}`);
  }
  console.log(`view 4: ${listed.length} scenarios ran live, each watching a port of its own topology`);
  // A failed start says so in the status line (no numbers of the run before) and the banner;
  // the next success clears the banner.
  await page.route('**/api/runs?*', (r) => r.fulfill({ status: 429, contentType: 'application/json',
    body: JSON.stringify({ error: 'limits.runs: 8 runs are active (the limit)', key: 'limits.runs' }) }));
  await page.click('#live-start');
  await page.waitForFunction(() => document.getElementById('live-status').dataset.status === 'error');
  assert.match(await page.locator('#live-status').textContent(), /^failed: 429/);
  assert.equal(await page.getAttribute('#live-status', 'data-samples'), null);
  assert.equal(await page.locator('#banner').isVisible(), true);
  await page.unroute('**/api/runs?*');
  await page.selectOption('#live-preset', 'incast-pfc');
  assert.equal(await page.inputValue('#live-port'), 'edge0.0->h0');
  // A run faster than the replay time is replayed over it, labelled: the curves are seen growing.
  await page.evaluate(() => { RD.replayMs = 2500; });
  await page.click('#live-start');
  await page.waitForFunction(() => document.getElementById('live-status').dataset.replay, null, { timeout: 60000 });
  assert.match(await page.locator('#live-status').textContent(), /^replay of a run that took/);
  await page.waitForFunction(() => { const d = document.getElementById('live-status').dataset; return Number(d.shown) > 0; });
  const [midway, midSeries] = await page.evaluate(() => [Number(document.getElementById('live-status').dataset.shown),
    RD.charts['live-tput'].getOption().series[0].data.length]);
  assert.equal(midSeries, midway, 'the throughput curve shows the samples replayed so far');
  await page.waitForFunction(() => document.getElementById('live-status').dataset.status, null, { timeout: 60000 });
  const st = await page.locator('#live-status').evaluate((e) => ({ ...e.dataset }));
  assert.equal(st.status, 'done');
  assert.ok(midway < Number(st.samples), `the replay grew: ${midway} of ${st.samples} shown midway`);
  assert.match(await page.locator('#live-status').textContent(), /^replayed, done:/);
  const liveRun = await api('/api/runs/' + st.run);
  assert.equal(await page.locator('#banner').isVisible(), false, 'the error banner clears on the next success');
  assert.ok(Number(st.samples) >= 10, `samples ${st.samples}`);
  assert.ok(Number(st.samples) <= liveRun.samples);
  assert.equal(Number(st.messages), liveRun.messages);
  const tput = (await option('live-tput')).series[0].data;
  assert.equal(tput.length, Number(st.samples));
  const pfc = (await option('live-pfc')).series[0].data.reduce((a, p) => a + p[1], 0);
  assert.ok(pfc > 0 && pfc <= liveRun.metrics['fabric.pause_frames'], `pause frames ${pfc}`);
  console.log(`view 4: ${st.samples} live samples of ${liveRun.samples}, ${liveRun.messages} messages, ${pfc} PFC frames`);
  await page.locator('#live').screenshot({ path: path.join(outDir, 'view4-live.png') });

  // 5. Scheme comparison: two presets, the table is the runs' metrics.
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.getElementById('cmp-status').dataset.done, null, { timeout: 60000 });
  const heads = await page.locator('#cmp-table th[data-run]').evaluateAll((hs) => hs.map((h) => h.dataset.run));
  assert.equal(heads.length, 2);
  const runs = await Promise.all(heads.map((id) => api('/api/runs/' + id)));
  const rows = await page.locator('#cmp-table tr[data-metric]').evaluateAll((trs) =>
    trs.map((tr) => ({ m: tr.dataset.metric, v: [...tr.querySelectorAll('td[data-value]')].map((td) => Number(td.dataset.value)) })));
  assert.ok(rows.length >= 5);
  for (const r of rows) r.v.forEach((v, i) => near(v, runs[i].metrics[r.m], `compare ${r.m}`));
  const tavg = rows.find((r) => r.m === 't_avg_us');
  console.log(`view 5: t_avg ${tavg.v.map((x) => x.toFixed(3)).join(' us vs ')} us`);
  // Coloured by each metric's direction: a lower time is better, a higher rate is.
  const cls = await page.locator('#cmp-table tr[data-metric="t_avg_us"] td[data-value]').nth(1).getAttribute('class');
  assert.equal(cls, tavg.v[1] < tavg.v[0] ? 'better' : 'worse');
  const rate = rows.find((r) => r.m.endsWith('_Gbps') && r.v[0] !== r.v[1]);
  if (rate) assert.equal(await page.locator(`#cmp-table tr[data-metric="${rate.m}"] td[data-value]`).nth(1).getAttribute('class'),
    rate.v[1] > rate.v[0] ? 'better' : 'worse');
  // Schemes can be removed (down to two); schemes that share no metric say so.
  await page.click('#cmp-add');
  assert.equal(await page.locator('.cmp-pick').count(), 3);
  await page.locator('.cmp-remove').nth(2).click();
  assert.equal(await page.locator('.cmp-pick').count(), 2);
  await page.locator('.cmp-remove').nth(1).click();
  assert.equal(await page.locator('.cmp-pick').count(), 2, 'two schemes stay');
  await page.locator('.cmp-pick').nth(1).selectOption('loss-cliff');
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.getElementById('cmp-status').dataset.done === '0', null, { timeout: 60000 });
  assert.match(await page.locator('#cmp-status').textContent(), /share no metric \(lat vs bw\)/);
  assert.equal(await page.locator('#cmp-table tr').count(), 0);
  // Open-loop flow runs: the chart is the FCT slowdown per flow size, from the runs' own tables.
  await page.locator('.cmp-pick').nth(0).selectOption('websearch-fct-dcqcn');
  await page.locator('.cmp-pick').nth(1).selectOption('websearch-fct-hpcc');
  await page.click('#cmp-run');
  await page.waitForFunction(() => document.getElementById('cmp-status').dataset.done === '2', null, { timeout: 60000 });
  assert.equal(await page.getAttribute('#cmp-status', 'data-slowdown'), '5');
  const fctRuns = await Promise.all((await page.locator('#cmp-table th[data-run]').evaluateAll((hs) => hs.map((h) => h.dataset.run)))
    .map((id) => api('/api/runs/' + id)));
  const fct = await option('cmp-chart');
  assert.deepEqual(fct.xAxis[0].data, fctRuns[0].slowdown.slice(0, 5).map((b) => b.bucket));
  fctRuns.forEach((r, i) => {
    const p99 = fct.series[2 * i].data;
    r.slowdown.slice(0, 5).forEach((b, k) => assert.equal(p99[k], b.flows > 0 ? +b.p99.toFixed(3) : null, `p99 ${b.bucket}`));
  });
  console.log(`view 5: FCT slowdown per flow size, ${fct.series.length} series over ${fct.xAxis[0].data.length} sizes`);
  await page.locator('#compare').screenshot({ path: path.join(outDir, 'view5-compare.png') });

  // Nav links land each heading below the sticky header.
  for (const id of ['latency', 'pipeline', 'gpu', 'fabric', 'live', 'compare']) {
    await page.click(`nav a[href="#${id}"]`);
    await page.waitForTimeout(100);
    const [head, h2] = await page.evaluate((i) => [document.querySelector('header').getBoundingClientRect().bottom,
      document.querySelector(`#${i} h2`).getBoundingClientRect().top], id);
    assert.ok(h2 >= head, `#${id}: heading at ${h2} px under the header's ${head} px`);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(outDir, 'dashboard.png'), fullPage: true });
  // A phone's width: no sideways scroll.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  const [sw, cw] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  assert.ok(sw <= cw, `at 390 px the page is ${sw} px wide`);
  await page.screenshot({ path: path.join(outDir, 'dashboard-390.png'), fullPage: true });
  // The one failed request the test provoked (the 429 it routed) is the only console error allowed.
  assert.deepEqual(errors.filter((e) => !e.includes('status of 429')), [], 'console errors');
  console.log(`browser test passed; screenshots in ${outDir}`);
} catch (e) {
  failed = true;
  console.error(e);
  if (errors.length) console.error('console errors:', errors);
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(profile, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
