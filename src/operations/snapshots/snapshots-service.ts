// The console's snapshots (DESIGN §18), built once by the composition root: the job takes them,
// the Overview page reads them as series.
import { readSeries, type Series, type SeriesQuery } from './snapshot-series.js';
import { takeSnapshotIfDue, type SnapshotTakeDeps } from './snapshot-take.js';

export interface Snapshots {
  /** This slot's take unless a process has made it, and the expired rows' deletion; how many rows it wrote and deleted. */
  takeIfDue(): Promise<number>;
  series(query: SeriesQuery): Promise<Series[]>;
}

export function createSnapshots(deps: SnapshotTakeDeps): Snapshots {
  return {
    takeIfDue: () => takeSnapshotIfDue(deps),
    series: (query) => readSeries(deps.db, query),
  };
}
