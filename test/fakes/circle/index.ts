// The Circle stand-in for tests: see README.md in this folder.
export { startCircleStandIn } from './stand-in.js';
export type { CircleStandIn, CircleStandInOptions } from './stand-in.js';
export type { ApiFault, ApiFaultRule, NotificationFault } from './faults.js';
export type { DeliveryAttempt, Notification } from './notifications.js';
export type { RequestLogEntry } from './server.js';
