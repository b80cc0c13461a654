// The built-in sandbox processor: a simulated card network and bank with books of their own
// (tables sandbox_instruments and sandbox_charges). Only the card network and the bank are
// simulated; every result is stored, idempotent per key, and read back the way a real processor's
// API would answer. Its hosted setup pages are served by peerpay itself (http/routes/link-pages-routes.ts),
// which calls completeHostedSetup with the button the user pressed.
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { SandboxInstrumentsTable } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import { newId, sha256Hex } from '../../platform/ids.js';
import type { FiatCurrency } from '../../money/assets.js';
import { addBusinessDays } from './business-days.js';
import { SandboxCardRisk } from './sandbox-card-risk.js';
import { sandboxBalanceMovements } from './sandbox-balance-movements.js';
import { sandboxChargesClause } from './sandbox-charges-clause.js';
import type {
  BalanceMovementsQuery,
  BankDebitInput,
  BankDebitStatus,
  CardChargeInput,
  CardChargeResult,
  ChargeInCredit,
  ChargesInCredit,
  CreateCustomerInput,
  InstrumentKind,
  PaymentProcessor,
  PayoutInput,
  PayoutReversalInput,
  ProcessorBalanceMovement,
  ProcessorRefund,
  RefundInput,
  PayoutResult,
  SetupSession,
  SetupSessionInput,
  UnwrittenCardCharge,
} from './payment-processor.js';

/** How a sandbox instrument behaves from its setup on: the outcome chosen on its setup page. */
export type SandboxBehaviour = 'succeed' | 'decline' | 'return';

/** Which behaviours each kind of instrument can be set up with. */
export const SANDBOX_BEHAVIOURS: Record<InstrumentKind, readonly SandboxBehaviour[]> = {
  card: ['succeed', 'decline'],
  bank_debit: ['succeed', 'return'],
  payout: ['succeed', 'decline'],
};

/** ACH debits settle this many business days after they are made (DESIGN §6). */
export const ACH_SETTLEMENT_BUSINESS_DAYS = 3;

const REF_PREFIX: Record<InstrumentKind, string> = { card: 'card_sbx', bank_debit: 'mandate_sbx', payout: 'acct_sbx' };

type ChargeKind = 'card_charge' | 'bank_debit' | 'payout';

type SandboxInstrumentRow = Selectable<SandboxInstrumentsTable>;

/** Instruments remembered at most by one processor; beyond, the memory starts again empty. */
const MAX_REMEMBERED_INSTRUMENTS = 100_000;

interface ChargeRow {
  ref: string;
  idempotency_key: string;
  instrument_ref: string;
  kind: ChargeKind;
  currency: string;
  amount: bigint;
  status: 'succeeded' | 'declined' | 'pending' | 'returned';
  settles_at: Date | null;
}

export class SandboxProcessor implements PaymentProcessor {
  readonly name = 'sandbox';
  /** The sandbox's charges table keeps every key. */
  readonly idempotencyKeyLifetimeMs = null;

  /** Refunds and payout reversals, and what test helpers do to them (sandbox-card-risk.ts). */
  readonly cardRisk: SandboxCardRisk;

  /** Instruments read so far, by ref (readInstrument). */
  private readonly instruments = new Map<string, SandboxInstrumentRow>();

  /** The sandbox's books are peerpay's tables: a succeeded card charge is written with its credit. */
  readonly chargesInCredit: ChargesInCredit = {
    chargeCard: (input) => this.chargeCardInCredit(input),
    succeedingCharge: (input) => this.succeedingCharge(input),
    clause: sandboxChargesClause,
  };

  constructor(private readonly deps: { db: Db; clock: Clock }) {
    this.cardRisk = new SandboxCardRisk(deps);
  }

  refund(input: RefundInput): Promise<ProcessorRefund> {
    return this.cardRisk.refund(input);
  }

  listRefunds(chargeRef: string): Promise<readonly ProcessorRefund[]> {
    return this.cardRisk.listRefunds(chargeRef);
  }

  reversePayout(input: PayoutReversalInput): Promise<{ reversalRef: string }> {
    return this.cardRisk.reversePayout(input);
  }

  async createCustomer(input: CreateCustomerInput): Promise<{ customerRef: string }> {
    // Derived from the idempotency key, so that a repeated call names the same customer, as Stripe's
    // idempotent create does. The sandbox needs no other record of its customers.
    return { customerRef: `cus_sbx_${sha256Hex(`customer:${input.idempotencyKey}`).slice(0, 24)}` };
  }

  async createSetupSession(input: SetupSessionInput): Promise<SetupSession> {
    // The sandbox's hosted page is peerpay's own link page.
    return { sessionRef: `seti_sbx_${sha256Hex(`session:${input.idempotencyKey}`).slice(0, 24)}`, url: input.linkUrl, completion: 'page' };
  }

  /** The user finished a hosted setup page: the instrument now exists and behaves as chosen. */
  async completeHostedSetup(input: {
    customerRef: string;
    kind: InstrumentKind;
    behaviour: SandboxBehaviour;
  }): Promise<{ instrumentRef: string }> {
    if (!SANDBOX_BEHAVIOURS[input.kind].includes(input.behaviour)) {
      throw new Error(`sandbox: a ${input.kind} cannot be set up to ${input.behaviour}`);
    }
    const ref = newId(REF_PREFIX[input.kind]);
    await this.deps.db
      .insertInto('sandbox_instruments')
      .values({ ref, customer_ref: input.customerRef, kind: input.kind, behaviour: input.behaviour, created_at: this.deps.clock.now() })
      .execute();
    return { instrumentRef: ref };
  }

  async chargeCard(input: CardChargeInput): Promise<CardChargeResult> {
    const instrument = await this.instrument(input.cardRef, 'card', input.customerRef);
    const charge = await this.recordCharge({
      kind: 'card_charge',
      prefix: 'ch_sbx',
      instrumentRef: input.cardRef,
      currency: input.currency,
      amountMinor: input.amountMinor,
      idempotencyKey: input.idempotencyKey,
      status: instrument.behaviour === 'decline' ? 'declined' : 'succeeded',
      settlesAt: null,
    });
    return charge.status === 'succeeded'
      ? { status: 'succeeded', chargeRef: charge.ref }
      : { status: 'declined', chargeRef: charge.ref, declineCode: 'card_declined' };
  }

  /**
   * chargeCard's decision without its write when the card succeeds: the charge the credit's
   * transaction writes (sandboxChargesClause). A declined card is recorded at once, as chargeCard
   * records it, and answered the same.
   */
  private async chargeCardInCredit(input: CardChargeInput): Promise<ChargeInCredit> {
    const charge = await this.succeedingCharge(input);
    return charge ? { written: false, charge } : { written: true, result: await this.chargeCard(input) };
  }

  /** The charge a card that succeeds makes, unwritten; null for a card that declines. Writes nothing. */
  private async succeedingCharge(input: CardChargeInput): Promise<UnwrittenCardCharge | null> {
    const instrument = await this.instrument(input.cardRef, 'card', input.customerRef);
    if (instrument.behaviour === 'decline') return null;
    if (input.amountMinor <= 0n) throw new Error('sandbox: charge amount must be positive');
    return {
      chargeRef: newId('ch_sbx'),
      idempotencyKey: input.idempotencyKey,
      cardRef: input.cardRef,
      currency: input.currency,
      amountMinor: input.amountMinor,
      createdAt: this.deps.clock.now(),
    };
  }

  async debitBank(input: BankDebitInput): Promise<BankDebitStatus> {
    await this.instrument(input.mandateRef, 'bank_debit', input.customerRef);
    const charge = await this.recordCharge({
      kind: 'bank_debit',
      prefix: 'dd_sbx',
      instrumentRef: input.mandateRef,
      currency: input.currency,
      amountMinor: input.amountMinor,
      idempotencyKey: input.idempotencyKey,
      status: 'pending',
      settlesAt: addBusinessDays(this.deps.clock.now(), ACH_SETTLEMENT_BUSINESS_DAYS),
    });
    return this.bankDebitStatus(charge.ref);
  }

  async bankDebitStatus(debitRef: string): Promise<BankDebitStatus> {
    let charge = await this.charge(debitRef, 'bank_debit');
    if (charge.status === 'pending' && charge.settles_at !== null && charge.settles_at <= this.deps.clock.now()) {
      // Settlement day has come: the bank pays, or returns the debit if the account was set up so.
      const instrument = await this.instrument(charge.instrument_ref, 'bank_debit');
      await this.deps.db
        .updateTable('sandbox_charges')
        .set({ status: instrument.behaviour === 'return' ? 'returned' : 'succeeded' })
        .where('ref', '=', debitRef)
        .where('status', '=', 'pending')
        .execute();
      charge = await this.charge(debitRef, 'bank_debit');
    }
    switch (charge.status) {
      case 'pending':
        return { status: 'pending', debitRef, expectedSettlementAt: charge.settles_at ?? this.deps.clock.now() };
      case 'succeeded':
        return { status: 'succeeded', debitRef };
      case 'returned':
        // R01: insufficient funds, the most common ACH return.
        return { status: 'returned', debitRef, returnCode: 'R01' };
      default:
        throw new Error(`sandbox: bank debit ${debitRef} has impossible status ${charge.status}`);
    }
  }

  async payout(input: PayoutInput): Promise<PayoutResult> {
    const instrument = await this.instrument(input.payoutAccountRef, 'payout');
    const charge = await this.recordCharge({
      kind: 'payout',
      prefix: 'po_sbx',
      instrumentRef: input.payoutAccountRef,
      currency: input.currency,
      amountMinor: input.amountMinor,
      idempotencyKey: input.idempotencyKey,
      status: instrument.behaviour === 'decline' ? 'declined' : 'succeeded',
      settlesAt: null,
    });
    return payoutResultOf(charge);
  }

  async payoutStatus(payoutRef: string): Promise<PayoutResult> {
    return payoutResultOf(await this.charge(payoutRef, 'payout'));
  }

  balanceMovements(query: BalanceMovementsQuery): Promise<readonly ProcessorBalanceMovement[]> {
    return sandboxBalanceMovements(this.deps.db, query);
  }

  private async instrument(ref: string, kind: InstrumentKind, customerRef?: string) {
    const row = this.instruments.get(ref) ?? (await this.readInstrument(ref));
    if (!row || row.kind !== kind || (customerRef !== undefined && row.customer_ref !== customerRef)) {
      throw new Error(`sandbox: no ${kind} ${ref}${customerRef ? ` for customer ${customerRef}` : ''}`);
    }
    return row;
  }

  /**
   * An instrument as set up. Its row is never changed nor deleted once made, so what was read stays
   * true for every process on the database: each is read once per processor (one statement fewer
   * per card charge), the memory bounded.
   */
  private async readInstrument(ref: string): Promise<SandboxInstrumentRow | undefined> {
    const row = await this.deps.db.selectFrom('sandbox_instruments').selectAll().where('ref', '=', ref).executeTakeFirst();
    if (!row) return undefined;
    if (this.instruments.size >= MAX_REMEMBERED_INSTRUMENTS) this.instruments.clear();
    this.instruments.set(ref, row);
    return row;
  }

  private async charge(ref: string, kind: ChargeKind): Promise<ChargeRow> {
    const row = await this.deps.db.selectFrom('sandbox_charges').selectAll().where('ref', '=', ref).executeTakeFirst();
    if (!row || row.kind !== kind) throw new Error(`sandbox: no ${kind} ${ref}`);
    return row;
  }

  /** Records a charge once per idempotency key; a repeat returns the first one, as Stripe does. */
  private async recordCharge(input: {
    kind: ChargeKind;
    prefix: string;
    instrumentRef: string;
    currency: FiatCurrency;
    amountMinor: bigint;
    idempotencyKey: string;
    status: ChargeRow['status'];
    settlesAt: Date | null;
  }): Promise<ChargeRow> {
    if (input.amountMinor <= 0n) throw new Error('sandbox: charge amount must be positive');
    // A new key's charge comes back from its insert; only a repeated key reads the first one.
    const inserted = await this.deps.db
      .insertInto('sandbox_charges')
      .values({
        ref: newId(input.prefix),
        idempotency_key: input.idempotencyKey,
        instrument_ref: input.instrumentRef,
        kind: input.kind,
        currency: input.currency,
        amount: input.amountMinor,
        status: input.status,
        settles_at: input.settlesAt,
        created_at: this.deps.clock.now(),
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returningAll()
      .executeTakeFirst();
    const row =
      inserted ??
      (await this.deps.db
        .selectFrom('sandbox_charges')
        .selectAll()
        .where('idempotency_key', '=', input.idempotencyKey)
        .executeTakeFirstOrThrow());
    const same =
      row.kind === input.kind &&
      row.instrument_ref === input.instrumentRef &&
      row.currency === input.currency &&
      row.amount === input.amountMinor;
    // A real processor refuses a key reused with other parameters; so does the sandbox.
    if (!same) throw new Error(`sandbox: idempotency key ${input.idempotencyKey} was used for a different ${row.kind}`);
    return row;
  }
}

function payoutResultOf(charge: ChargeRow): PayoutResult {
  return charge.status === 'succeeded'
    ? { status: 'paid', payoutRef: charge.ref }
    : { status: 'failed', payoutRef: charge.ref, failureCode: 'account_closed' };
}
