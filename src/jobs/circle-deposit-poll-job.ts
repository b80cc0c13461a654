// WALLET_PROVIDER=circle: credits the inbound Circle transactions whose notification never came;
// see stablecoin/deposits/circle-deposit-poll.ts. It takes the chain-log deposit watcher's place.
import type { CircleDepositPoll } from '../stablecoin/deposits/circle-deposit-poll.js';
import type { Job } from './job.js';

export function createCircleDepositPollJob({ circleDepositPoll }: { circleDepositPoll: CircleDepositPoll }): Job {
  return {
    name: 'circle-deposit-poll',
    chain: true,
    async run(log) {
      const round = await circleDepositPoll.poll(log);
      return round.credited;
    },
  };
}
