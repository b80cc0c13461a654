// How many webhook sockets this process holds open, in all and per endpoint. A slot is taken
// before a delivery opens its socket and given back only once that socket is closed, so the
// counts are file descriptors, not deliveries: overlapping rounds (the job's own, a sandbox clock
// move running the jobs at once) share them. Per endpoint across processes, the claim's leases
// bound it too (deliveries-repository.ts).
export interface SocketSlots {
  /** A slot for one socket to `endpointId`, or null when the process or that endpoint is at its limit. */
  tryTake(endpointId: string): (() => void) | null;
  /** Sockets open now (for tests and metrics). */
  inUse(): number;
}

export function createSocketSlots(limits: { perProcess: number; perEndpoint: number }): SocketSlots {
  let total = 0;
  const byEndpoint = new Map<string, number>();
  return {
    tryTake(endpointId) {
      const held = byEndpoint.get(endpointId) ?? 0;
      if (total >= limits.perProcess || held >= limits.perEndpoint) return null;
      total++;
      byEndpoint.set(endpointId, held + 1);
      let given = false;
      return () => {
        if (given) return;
        given = true;
        total--;
        const left = (byEndpoint.get(endpointId) ?? 1) - 1;
        // Entries go with their last socket: the map never outgrows the sockets in flight.
        if (left === 0) byEndpoint.delete(endpointId);
        else byEndpoint.set(endpointId, left);
      };
    },
    inUse: () => total,
  };
}
