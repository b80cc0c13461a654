// The console's SVG charts (DESIGN §18): exact axis labels from bigint values (also beyond 2^53),
// an empty series drawn as such, every text escaped, and a title and description for screen readers.
import { describe, expect, it } from 'vitest';
import { fraction, niceStep, valueAxis } from '../../../src/console/charts/chart-scale.js';
import { renderChart, type ChartSpec } from '../../../src/console/charts/svg-chart.js';
import { formatMinor } from '../../../src/money/amount.js';

const from = new Date('2026-11-26T00:00:00Z');
const to = new Date('2026-11-27T00:00:00Z');
const HOUR = 3_600_000;

function spec(overrides: Partial<ChartSpec> = {}): ChartSpec {
  return {
    id: 'volume-24h',
    title: 'Transfer volume per hour, fiat USD',
    description: 'USD sent by fiat transfers per hour',
    kind: 'bar',
    points: [],
    from,
    to,
    bucketMs: HOUR,
    format: (value) => `${formatMinor(value, 'USD')} USD`,
    timeLabel: (at) => at.toISOString().slice(11, 16),
    ...overrides,
  };
}

describe('chart scale', () => {
  it('steps are 1, 2 or 5 times a power of ten, at least the value', () => {
    expect([0n, 1n, 3n, 7n, 10n, 11n, 26n, 99n, 101n, 2_000_001n].map(niceStep)).toEqual([
      1n,
      1n,
      5n,
      10n,
      10n,
      20n,
      50n,
      100n,
      200n,
      5_000_000n,
    ]);
  });

  it('the axis covers the largest value with four exact steps', () => {
    expect(valueAxis(1001n)).toEqual({ step: 500n, top: 2000n, ticks: [0n, 500n, 1000n, 1500n, 2000n] });
    expect(valueAxis(0n)).toEqual({ step: 1n, top: 4n, ticks: [0n, 1n, 2n, 3n, 4n] });
    expect(valueAxis(-5n).top).toBe(4n);
  });

  it('places values beyond 2^53 exactly enough for pixels, and clamps', () => {
    const huge = 2n ** 60n;
    expect(fraction(huge / 2n, huge)).toBe(0.5);
    expect(fraction(huge + 1n, huge)).toBe(1);
    expect(fraction(-1n, huge)).toBe(0);
    expect(fraction(5n, 0n)).toBe(0);
  });
});

describe('renderChart', () => {
  it('an empty series: the frame, "No data yet", and a description that says so', () => {
    const svg = renderChart(spec());
    expect(svg).toMatch(/^<svg [^>]*role="img" aria-labelledby="volume-24h-title volume-24h-desc">/);
    expect(svg).toContain('<title id="volume-24h-title">Transfer volume per hour, fiat USD</title>');
    expect(svg).toContain('<desc id="volume-24h-desc">USD sent by fiat transfers per hour, 00:00 to 00:00: no data yet.</desc>');
    expect(svg).toContain('No data yet');
    expect(svg).not.toContain('<rect');
  });

  it('bars: one per point, axis labels as exact amounts, each bar titled with its value', () => {
    const svg = renderChart(
      spec({
        points: [
          { at: new Date(from.getTime() + 2 * HOUR), value: 123_456n },
          { at: new Date(from.getTime() + 5 * HOUR), value: 1n },
        ],
      }),
    );
    expect(svg.match(/<rect /g)).toHaveLength(2);
    // Axis up to 2,000.00 USD in steps of 500.00: the largest value is 1,234.56.
    for (const label of ['0.00 USD', '500.00 USD', '1000.00 USD', '1500.00 USD', '2000.00 USD']) expect(svg).toContain(`>${label}</text>`);
    expect(svg).toContain('<title>02:00: 1234.56 USD</title>');
    expect(svg).toContain('last 0.01 USD (05:00), highest 1234.56 USD (02:00)');
  });

  it('a value beyond 2^53 is labelled exactly', () => {
    const value = 2n ** 60n + 1n;
    const svg = renderChart(spec({ kind: 'line', points: [{ at: from, value }], format: (v) => v.toString() }));
    expect(svg).toContain(`highest ${value.toString()}`);
    expect(svg).toMatch(/<path d="M132,[0-9.]+" /);
  });

  it('a line through the points, left to right', () => {
    const svg = renderChart(
      spec({
        kind: 'line',
        points: [
          { at: from, value: 0n },
          { at: new Date(from.getTime() + 12 * HOUR), value: 400n },
        ],
      }),
    );
    // Plot: x from 132 to 628, y from 12 (top) to 192 (bottom); 400 is the axis top (4 steps of 100).
    expect(svg).toContain('<path d="M132,192 L380,12"');
  });

  it('escapes every text it is given', () => {
    const svg = renderChart(
      spec({
        id: 'x"><script>',
        title: '<b>volume</b> & "more"',
        points: [{ at: from, value: 5n }],
        format: () => '<img src=x>',
      }),
    );
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('<b>');
    expect(svg).not.toContain('<img');
    expect(svg).toContain('&lt;b&gt;volume&lt;/b&gt; &amp; &quot;more&quot;');
  });
});
