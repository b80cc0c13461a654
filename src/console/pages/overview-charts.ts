// The Overview page's charts (DESIGN §18): the hot wallet per token, the transfer volume per rail
// and asset, and the webhook failures, over the last 24 hours and the last 30 days, from the
// snapshots taken every 5 minutes.
import { html, raw, type SafeHtml } from '../html.js';
import { renderChart, type ChartSpec } from '../charts/svg-chart.js';
import { formatMinorTrimmed } from '../../money/amount.js';
import { isFiatCurrency, isToken } from '../../money/assets.js';
import type { Series } from '../../operations/snapshots/snapshot-series.js';
import type { SnapshotMetric } from '../../operations/snapshots/snapshot-take.js';
import type { Snapshots } from '../../operations/snapshots/snapshots-service.js';
import { TOKENS } from '../../money/assets.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

interface Window {
  name: string;
  id: string;
  spanMs: number;
  /** Buckets of the hot wallet's line, and of the bars. */
  lineBucketMs: number;
  barBucketMs: number;
  timeLabel: (at: Date) => string;
}

const WINDOWS: Window[] = [
  {
    name: 'last 24 hours',
    id: '24h',
    spanMs: DAY_MS,
    lineBucketMs: 5 * 60_000,
    barBucketMs: HOUR_MS,
    timeLabel: (at) => `${at.toISOString().slice(11, 16)} UTC`,
  },
  {
    name: 'last 30 days',
    id: '30d',
    spanMs: 30 * DAY_MS,
    lineBucketMs: 6 * HOUR_MS,
    barBucketMs: DAY_MS,
    timeLabel: (at) => at.toISOString().slice(5, 10),
  },
];

/** Exact and shortest (`12.5 USDC`), so that axis labels fit. */
function formatterOf(asset: string): (value: bigint) => string {
  if (isToken(asset) || isFiatCurrency(asset)) return (value) => `${formatMinorTrimmed(value, asset)} ${asset}`;
  return (value) => value.toString();
}

export async function overviewCharts(snapshots: Snapshots, now: Date): Promise<SafeHtml> {
  const sections: SafeHtml[] = [];
  for (const window of WINDOWS) {
    // The window ends at the end of the bucket under way, so that the newest take is drawn.
    const to = new Date(Math.ceil((now.getTime() + 1) / window.barBucketMs) * window.barBucketMs);
    const from = new Date(to.getTime() - window.spanMs);
    const read = (metric: SnapshotMetric, bucketMs: number) => snapshots.series({ metric, from, to, bucketMs });
    const [wallet, volume, failures] = await Promise.all([
      read('hot_wallet', window.lineBucketMs),
      read('transfer_volume', window.barBucketMs),
      read('webhook_failures', window.barBucketMs),
    ]);
    const chart = (series: Series | undefined, spec: Omit<ChartSpec, 'points' | 'from' | 'to' | 'timeLabel'>) =>
      raw(renderChart({ ...spec, points: series?.points ?? [], from, to, timeLabel: window.timeLabel }));
    const walletCharts = TOKENS.map((token) =>
      chart(
        wallet.find((s) => s.asset === token),
        {
          id: `hot-${token}-${window.id}`,
          title: `Hot wallet, ${token}, ${window.name}`,
          description: `${token} in the hot wallet`,
          kind: 'line',
          bucketMs: window.lineBucketMs,
          format: formatterOf(token),
        },
      ),
    );
    const per = window.barBucketMs === HOUR_MS ? 'hour' : 'day';
    const volumeCharts = volume.map((series) =>
      chart(series, {
        id: `volume-${series.rail}-${series.asset}-${window.id}`,
        title: `Transfer volume per ${per}, ${series.rail} ${series.asset}, ${window.name}`,
        description: `${series.asset} sent by ${series.rail} transfers per ${per}`,
        kind: 'bar',
        bucketMs: window.barBucketMs,
        format: formatterOf(series.asset),
      }),
    );
    const failureChart = chart(failures[0], {
      id: `webhook-failures-${window.id}`,
      title: `Webhook failures per ${per}, ${window.name}`,
      description: `failed webhook delivery attempts per ${per}`,
      kind: 'bar',
      bucketMs: window.barBucketMs,
      format: (value) => value.toString(),
    });
    sections.push(
      html`<section aria-labelledby="charts-${window.id}">
        <h2 id="charts-${window.id}">Charts, ${window.name}</h2>
        <h3>Hot wallet</h3>
        ${walletCharts}
        <h3>Transfer volume per ${per}</h3>
        ${volumeCharts.length === 0 ? html`<p>No transfers in this window.</p>` : volumeCharts}
        <h3>Webhook failures per ${per}</h3>
        ${failureChart}
      </section>`,
    );
  }
  return html`${sections}`;
}
