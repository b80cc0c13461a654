// Sandbox-only helpers for card risk (DESIGN §16): open and close disputes, send early fraud
// warnings, make a refund "in the dashboard" and make a refund fail. Each becomes the event a
// processor would send and goes through the same handler as Stripe's webhooks
// (fiat/processor-events.ts), with an event id of its own.
import { Type } from 'typebox';
import type { CardRiskEvent, ProcessorRefund } from '../../adapters/processor/payment-processor.js';
import type { SandboxProcessor } from '../../adapters/processor/sandbox-processor.js';
import type { ProcessorEvents } from '../../fiat/processor-events.js';
import type { SandboxCardRiskLookups } from '../../fiat/card-risk/sandbox-card-risk-lookups.js';
import { parseAmount } from '../../money/amount.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { operation } from '../schemas/operation.js';
import type { App } from '../types.js';
/** What these helpers call. */
export type CardRiskHelperServices = { processorEvents: ProcessorEvents; lookups: SandboxCardRiskLookups };

type HelperDeps = CardRiskHelperServices;

function helper(operationId: string, summary: string, body: ReturnType<typeof Type.Object>, params = false) {
  return operation({
    operationId,
    tag: 'sandbox',
    summary,
    auth: 'public',
    published: false,
    readsBody: true,
    body,
    ...(params ? { params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }) } : {}),
    responses: { 200: Type.Object({}, { additionalProperties: true }) },
    errors: ['not_found', 'invalid_request', 'invalid_amount'],
  });
}

async function chargedTransfer(deps: HelperDeps, transferId: string) {
  const transfer = await deps.lookups.chargedTransfer(transferId);
  if (!transfer) throw new AppError('not_found', `No completed transfer ${transferId.slice(0, 64)}.`);
  return transfer;
}

function minorOf(amount: number | undefined, currency: 'USD' | 'EUR' | 'GBP' | 'JPY', fallback: bigint): bigint {
  if (amount === undefined) return fallback;
  const parsed = parseAmount(amount, currency, 10n ** 15n);
  if (!parsed.ok) throw new AppError('invalid_amount', `The amount must be a positive ${currency} amount.`);
  return parsed.minor;
}

async function apply(deps: HelperDeps, event: CardRiskEvent) {
  return { eventId: event.eventId, outcome: await deps.processorEvents.apply(event) };
}

/** An optional positive amount in a helper's body. */
type MoneySchema = ReturnType<typeof Type.Optional<ReturnType<typeof Type.Number>>>;

export async function testHelperCardRiskRoutes(app: App, deps: HelperDeps, sandbox: SandboxProcessor): Promise<void> {
  const Money = Type.Optional(Type.Number({ exclusiveMinimum: 0 }));
  disputeHelpers(app, deps, Money);
  earlyFraudWarningHelper(app, deps);
  refundHelpers(app, deps, sandbox, Money);
}

function disputeHelpers(app: App, deps: HelperDeps, Money: MoneySchema): void {
  app.post(
    '/test-helpers/disputes',
    helper(
      'openSandboxDispute',
      'Open a dispute of a card transfer (sandbox mode only)',
      Type.Object({ transferId: Type.String({ maxLength: 64 }), amount: Money, disputeFee: Money }, { additionalProperties: false }),
    ),
    async (request) => {
      const body = request.body as { transferId: string; amount?: number; disputeFee?: number };
      const transfer = await chargedTransfer(deps, body.transferId);
      const dispute = {
        disputeRef: newId('du_sbx'),
        chargeRef: transfer.processorRef,
        currency: transfer.currency,
        amountMinor: minorOf(body.amount, transfer.currency, transfer.amountMinor + transfer.feeMinor),
        reason: 'fraudulent',
        status: 'open' as const,
        feeMinor: body.disputeFee === undefined ? null : minorOf(body.disputeFee, transfer.currency, 0n),
      };
      const applied = await apply(deps, { eventId: newId('evt_sbx'), type: 'charge.dispute.created', kind: 'dispute_changed', dispute });
      return { dispute: { id: dispute.disputeRef, transferId: transfer.id }, ...applied };
    },
  );
  app.post(
    '/test-helpers/disputes/:id/close',
    helper(
      'closeSandboxDispute',
      'Close a dispute, won or lost (sandbox mode only)',
      Type.Object({ outcome: Type.Union([Type.Literal('won'), Type.Literal('lost')]) }, { additionalProperties: false }),
      true,
    ),
    async (request) => {
      const { id } = request.params as { id: string };
      const { outcome } = request.body as { outcome: 'won' | 'lost' };
      const row = await deps.lookups.dispute(id);
      if (!row?.chargeRef) throw new AppError('not_found', `No dispute ${id.slice(0, 64)}.`);
      const dispute = {
        disputeRef: id,
        chargeRef: row.chargeRef,
        currency: row.currency as 'USD',
        amountMinor: row.amount,
        reason: row.reason,
        status: outcome,
        feeMinor: row.disputeFee,
      };
      return apply(deps, { eventId: newId('evt_sbx'), type: 'charge.dispute.closed', kind: 'dispute_changed', dispute });
    },
  );
}

function earlyFraudWarningHelper(app: App, deps: HelperDeps): void {
  app.post(
    '/test-helpers/early-fraud-warnings',
    helper(
      'sendSandboxEarlyFraudWarning',
      'Send an early fraud warning on a card transfer (sandbox mode only)',
      Type.Object({ transferId: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
    ),
    async (request) => {
      const transfer = await chargedTransfer(deps, (request.body as { transferId: string }).transferId);
      const warningRef = newId('issfr_sbx');
      return {
        warning: { id: warningRef },
        ...(await apply(deps, {
          eventId: newId('evt_sbx'),
          type: 'radar.early_fraud_warning.created',
          kind: 'early_fraud_warning',
          warningRef,
          chargeRef: transfer.processorRef,
        })),
      };
    },
  );
}

function refundHelpers(app: App, deps: HelperDeps, sandbox: SandboxProcessor, Money: MoneySchema): void {
  const changed = (refund: ProcessorRefund, type: string): CardRiskEvent => ({
    eventId: newId('evt_sbx'),
    type,
    kind: 'refunds_changed',
    chargeRef: refund.chargeRef,
    refunds: [refund],
  });
  app.post(
    '/test-helpers/refunds',
    helper(
      'makeSandboxDashboardRefund',
      'Refund a card transfer outside peerpay, as in the Stripe dashboard (sandbox mode only)',
      Type.Object({ transferId: Type.String({ maxLength: 64 }), amount: Money }, { additionalProperties: false }),
    ),
    async (request) => {
      const body = request.body as { transferId: string; amount?: number };
      const transfer = await chargedTransfer(deps, body.transferId);
      let refund: ProcessorRefund;
      try {
        refund = await sandbox.cardRisk.dashboardRefund(
          transfer.processorRef,
          minorOf(body.amount, transfer.currency, transfer.amountMinor + transfer.feeMinor),
        );
      } catch (error) {
        throw new AppError('invalid_request', (error as Error).message);
      }
      return { refund: { id: refund.refundRef }, ...(await apply(deps, changed(refund, 'refund.created'))) };
    },
  );
  app.post(
    '/test-helpers/refunds/:id/fail',
    helper(
      'failSandboxRefund',
      'Make a refund fail, as the card network may (sandbox mode only)',
      Type.Object({}, { additionalProperties: false }),
      true,
    ),
    async (request) => {
      const { id } = request.params as { id: string };
      if (!(await deps.lookups.sandboxRefundExists(id))) throw new AppError('not_found', `No refund ${id.slice(0, 64)}.`);
      return apply(deps, changed(await sandbox.cardRisk.failRefund(id), 'refund.failed'));
    },
  );
}
