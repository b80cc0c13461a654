// A hand-written SVG line chart: throughput (ops/s, linear) against concurrency (log scale).
export interface Series {
  name: string;
  points: [number, number][];
  dashed: boolean;
}

const COLOURS = [
  '#000000',
  '#555555',
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#bcbd22',
  '#7f7f7f',
];

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderChart(input: { levels: number[]; series: Series[] }): string {
  const width = 900;
  const height = 520;
  const left = 70;
  const top = 30;
  const plotW = 480;
  const plotH = 420;
  const levels = [...input.levels].sort((a, b) => a - b);
  const minX = Math.log(levels[0]!);
  const maxX = Math.log(levels[levels.length - 1]!);
  const all = input.series.flatMap((s) => s.points.map((p) => p[1])).filter(Number.isFinite);
  const rawMax = Math.max(1, ...all);
  const magnitude = 10 ** Math.floor(Math.log10(rawMax));
  const maxY = Math.ceil(rawMax / magnitude) * magnitude;
  const x = (c: number) => left + (maxX === minX ? plotW / 2 : ((Math.log(c) - minX) / (maxX - minX)) * plotW);
  const y = (v: number) => top + plotH - (v / maxY) * plotH;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
  );
  out.push(`<rect width="${width}" height="${height}" fill="white"/>`);
  out.push(`<text x="${left}" y="18" font-size="14">Throughput (2xx/s) vs concurrency</text>`);
  for (let i = 0; i <= 5; i++) {
    const v = (maxY / 5) * i;
    out.push(`<line x1="${left}" x2="${left + plotW}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`);
    out.push(`<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${Math.round(v)}</text>`);
  }
  for (const c of levels) {
    out.push(`<line x1="${x(c)}" x2="${x(c)}" y1="${top}" y2="${top + plotH}" stroke="#eee"/>`);
    out.push(`<text x="${x(c)}" y="${top + plotH + 16}" text-anchor="middle">${c}</text>`);
  }
  out.push(
    `<text x="${left + plotW / 2}" y="${top + plotH + 34}" text-anchor="middle">concurrency (connections / clients, log scale)</text>`,
  );
  out.push(`<rect x="${left}" y="${top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333"/>`);
  input.series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const pts = s.points.filter((p) => Number.isFinite(p[1])).sort((a, b) => a[0] - b[0]);
    if (pts.length === 0) return;
    const dash = s.dashed ? ' stroke-dasharray="6 4"' : '';
    out.push(
      `<polyline fill="none" stroke="${colour}" stroke-width="2"${dash} points="${pts.map((p) => `${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' ')}"/>`,
    );
    for (const p of pts) out.push(`<circle cx="${x(p[0]).toFixed(1)}" cy="${y(p[1]).toFixed(1)}" r="3" fill="${colour}"/>`);
    const ly = top + 10 + i * 20;
    out.push(
      `<line x1="${left + plotW + 20}" x2="${left + plotW + 45}" y1="${ly}" y2="${ly}" stroke="${colour}" stroke-width="2"${dash}/>`,
    );
    out.push(`<text x="${left + plotW + 50}" y="${ly + 4}">${escape(s.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}
