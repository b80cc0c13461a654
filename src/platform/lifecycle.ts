// Whether this process is draining: about to stop, so that a load balancer should send it no new
// requests (GET /health/ready answers 503 from then on; GET /health/live still answers).
export interface Lifecycle {
  readonly draining: boolean;
  startDraining(): void;
}

export function createLifecycle(): Lifecycle {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    startDraining() {
      draining = true;
    },
  };
}
