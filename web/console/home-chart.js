// The console home's chart: sends, opened sends and the open rate of the last 30 days, drawn with uPlot from the
// table under it (the figures the page already has; without JavaScript the table is the whole story). Colours come
// from the console's tokens, so the account's accent and dark mode carry over. Once drawn, the table folds into its
// "Day by day" disclosure.
import uPlot from './uplot.js';

const box = document.getElementById('activity-chart-box');
const target = document.getElementById('activity-chart');
const table = document.getElementById('activity-table');
const readout = document.getElementById('chart-readout');
const HEIGHT = 260;

/** `#rgb` / `#rrggbb` with an alpha, for area fills; anything else as it is. */
function withAlpha(colour, alpha) {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour)?.[1];
  if (!hex) return colour;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

const dayLabel = (seconds) => new Date(seconds * 1000).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

function draw() {
  const rows = [...table.tBodies[0].rows];
  const xs = rows.map((r) => Date.parse(`${r.dataset.date}T00:00:00Z`) / 1000);
  const sends = rows.map((r) => Number(r.dataset.sends));
  const opens = rows.map((r) => Number(r.dataset.opens));
  const rates = rows.map((r) => (r.dataset.rate === '' ? null : Number(r.dataset.rate) * 100));
  const css = getComputedStyle(document.documentElement);
  const token = (name, fallback) => css.getPropertyValue(name).trim() || fallback;
  const accent = token('--accent', '#3451d1');
  // The line in the link colour (readable on the surface in light and dark mode), the area in the accent.
  const ink = token('--accent-ink', accent);
  const success = token('--success', '#1b7331');
  const warning = token('--warning', '#8a5a00');
  const muted = token('--muted', '#56606e');
  const grid = token('--border', '#dde2e8');
  const font = `12px ${token('--font', 'system-ui, sans-serif')}`;
  const axis = { stroke: muted, font, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };

  box.hidden = false;
  const options = {
    width: target.clientWidth,
    height: HEIGHT,
    legend: { show: false },
    // Days are UTC days, as in the table: ticks fall on UTC midnights whatever the browser's zone.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    cursor: { drag: { x: false, y: false }, points: { size: 7 } },
    scales: { x: { time: true }, count: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] }, rate: { range: [0, 100] } },
    series: [
      {},
      { label: 'Sends', scale: 'count', stroke: ink, width: 2, fill: withAlpha(accent, 0.14), points: { show: false } },
      { label: 'Opened', scale: 'count', stroke: success, width: 2, points: { show: false } },
      { label: 'Open rate', scale: 'rate', stroke: warning, width: 2, dash: [6, 4], spanGaps: false, points: { show: false } },
    ],
    axes: [
      { ...axis, space: 56, values: (_u, splits) => splits.map(dayLabel) },
      { ...axis, scale: 'count', size: 44, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000], values: (_u, splits) => splits.map((v) => v.toLocaleString('en-US')) },
      { ...axis, scale: 'rate', side: 1, size: 48, grid: { show: false }, incrs: [25], values: (_u, splits) => splits.map((v) => `${v} %`) },
    ],
    hooks: {
      setCursor: [
        (u) => {
          const row = u.cursor.idx == null ? null : rows[u.cursor.idx];
          if (!row) return;
          const [day, s, o, rate] = [...row.cells].map((c) => c.textContent.trim());
          readout.textContent = `${day}: ${s} ${s === '1' ? 'send' : 'sends'}, ${o} opened, open rate ${rate}`;
        },
      ],
    },
  };
  const chart = new uPlot(options, [xs, sends, opens, rates], target);
  new window.ResizeObserver(() => chart.setSize({ width: target.clientWidth, height: HEIGHT })).observe(target);
  document.getElementById('activity-figures')?.removeAttribute('open');
  box.dataset.drawn = 'true';
}

if (box && target && table && readout) draw();
