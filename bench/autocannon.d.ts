// The little of autocannon's programmatic API that bench/load.ts uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    p50: number;
    p99: number;
    max: number;
  }
  interface Result {
    requests: { total: number };
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  }
  interface Options {
    url: string;
    connections: number;
    duration: number;
    timeout?: number;
    requests?: unknown[];
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
