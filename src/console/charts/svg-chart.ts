// A chart of one time series as SVG, drawn on the server (DESIGN §18: no script, nothing to build).
// Pure: a spec in, markup out. Every text is escaped; the chart has a <title> and a <desc> (what it
// shows, its range, its last and highest value) for a screen reader, and values are labelled with
// the exact amounts `format` gives (bigint minor units, never floats; floats only place pixels).
import { escapeHtml } from '../html.js';
import { fraction, valueAxis } from './chart-scale.js';

export interface ChartPoint {
  /** The start of the bucket the value is for. */
  at: Date;
  value: bigint;
}

export interface ChartSpec {
  /** Unique on the page: the title's and description's ids derive from it. */
  id: string;
  title: string;
  /** What is measured, in words (`USDC in the hot wallet`). */
  description: string;
  kind: 'line' | 'bar';
  points: readonly ChartPoint[];
  /** The time window drawn, and the width of one bucket. */
  from: Date;
  to: Date;
  bucketMs: number;
  /** An exact display of a value (a decimal string of the asset, a count). */
  format: (value: bigint) => string;
  /** A time on the axis (`14:00`, `11-26`). */
  timeLabel: (at: Date) => string;
}

const WIDTH = 640;
const HEIGHT = 220;
const PLOT = { left: 132, right: 12, top: 12, bottom: 28 };

export function renderChart(spec: ChartSpec): string {
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const span = Math.max(1, spec.to.getTime() - spec.from.getTime());
  const x = (at: Date) => PLOT.left + ((at.getTime() - spec.from.getTime()) / span) * plotWidth;
  const axis = valueAxis(spec.points.reduce((max, p) => (p.value > max ? p.value : max), 0n));
  const y = (value: bigint) => PLOT.top + plotHeight - fraction(value, axis.top) * plotHeight;
  const ids = { title: `${spec.id}-title`, desc: `${spec.id}-desc` };
  const parts = [
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${escapeHtml(ids.title)} ${escapeHtml(ids.desc)}">`,
    `<title id="${escapeHtml(ids.title)}">${escapeHtml(spec.title)}</title>`,
    `<desc id="${escapeHtml(ids.desc)}">${escapeHtml(describe(spec))}</desc>`,
    ...valueTicks(axis.ticks, y, spec.format),
    ...timeTicks(spec, x),
    `<line x1="${PLOT.left}" y1="${PLOT.top + plotHeight}" x2="${WIDTH - PLOT.right}" y2="${PLOT.top + plotHeight}" stroke="#57606a" />`,
  ];
  if (spec.points.length === 0) {
    parts.push(
      `<text x="${PLOT.left + plotWidth / 2}" y="${PLOT.top + plotHeight / 2}" text-anchor="middle" fill="#57606a">No data yet</text>`,
    );
  } else if (spec.kind === 'bar') {
    const barWidth = Math.max(1, (spec.bucketMs / span) * plotWidth - 2);
    for (const p of spec.points) {
      const top = y(p.value);
      parts.push(
        `<rect x="${px(x(p.at) + 1)}" y="${px(top)}" width="${px(barWidth)}" height="${px(PLOT.top + plotHeight - top)}" fill="#0b5cad"><title>${escapeHtml(`${spec.timeLabel(p.at)}: ${spec.format(p.value)}`)}</title></rect>`,
      );
    }
  } else {
    const path = spec.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${px(x(p.at))},${px(y(p.value))}`).join(' ');
    parts.push(`<path d="${path}" fill="none" stroke="#0b5cad" stroke-width="2" />`);
  }
  parts.push('</svg>');
  return parts.join('');
}

function describe(spec: ChartSpec): string {
  const range = `${spec.description}, ${spec.timeLabel(spec.from)} to ${spec.timeLabel(spec.to)}`;
  if (spec.points.length === 0) return `${range}: no data yet.`;
  const last = spec.points[spec.points.length - 1]!;
  const highest = spec.points.reduce((max, p) => (p.value > max.value ? p : max));
  return `${range}: last ${spec.format(last.value)} (${spec.timeLabel(last.at)}), highest ${spec.format(highest.value)} (${spec.timeLabel(highest.at)}).`;
}

function valueTicks(ticks: readonly bigint[], y: (v: bigint) => number, format: (v: bigint) => string): string[] {
  return ticks.map(
    (tick) =>
      `<line x1="${PLOT.left}" y1="${px(y(tick))}" x2="${WIDTH - PLOT.right}" y2="${px(y(tick))}" stroke="#d0d7de" />` +
      `<text x="${PLOT.left - 6}" y="${px(y(tick) + 4)}" text-anchor="end" font-size="12" fill="#1b1f24">${escapeHtml(format(tick))}</text>`,
  );
}

/** Labels at the start, the middle and the end of the window. */
function timeTicks(spec: ChartSpec, x: (at: Date) => number): string[] {
  const mid = new Date((spec.from.getTime() + spec.to.getTime()) / 2);
  return [
    [spec.from, 'start'],
    [mid, 'middle'],
    [spec.to, 'end'],
  ].map(
    ([at, anchor]) =>
      `<text x="${px(x(at as Date))}" y="${HEIGHT - 8}" text-anchor="${anchor as string}" font-size="12" fill="#1b1f24">${escapeHtml(spec.timeLabel(at as Date))}</text>`,
  );
}

/** Pixels to a tenth: short markup, and the same markup for the same chart. */
function px(value: number): string {
  return (Math.round(value * 10) / 10).toString();
}
