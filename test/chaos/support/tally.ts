// What a security suite counts for the chaos report: the requests it made and the violations it
// found. A test body wrapped by `counted` that fails is one violation, unless it counted its own.
export interface Tally {
  operations: number;
  violations: number;
  counted<A extends unknown[]>(body: (...args: A) => Promise<void> | void): (...args: A) => Promise<void>;
}

export function chaosTally(): Tally {
  const tally: Tally = {
    operations: 0,
    violations: 0,
    counted:
      (body) =>
      async (...args) => {
        const before = tally.violations;
        try {
          await body(...args);
        } catch (error) {
          if (tally.violations === before) tally.violations++;
          throw error;
        }
      },
  };
  return tally;
}

/** `bytes` seeded random bytes as hex, without 0x. */
export const seededHex = (random: () => number) => (bytes: number) =>
  Array.from({ length: bytes }, () =>
    Math.floor(random() * 256)
      .toString(16)
      .padStart(2, '0'),
  ).join('');
