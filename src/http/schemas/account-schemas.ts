// Schemas of the account routes: registration (both rails), existence check, lookups, keys, the
// profile and the stablecoin wallet (contract §2–§5, DESIGN §6, §15).
import { Type } from 'typebox';
import { EmailSchema, HandleSchema } from './common.js';

const ADDRESS_EXAMPLE = '0x52908400098527886E0F7030069857D2E4169EE7';
const API_KEY_EXAMPLE = 'pa_live_4Vb9T2mQx7KcR1nZ8pLw3YdF6sHj0GtA5uEo9iNk2Ca7fX1b';
const WALLET_EXAMPLE = 'wal_3f9a2c7e1b5d8046a9e2c1f7';

export const RegisterBody = Type.Object(
  {
    email: EmailSchema,
    password: Type.String({ minLength: 8, maxLength: 256, description: 'At least 8 characters' }),
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Required for new accounts. Letters, marks, spaces, apostrophes, hyphens and dots (400 `invalid_field` otherwise)',
      }),
    ),
    phone: Type.Optional(Type.String({ maxLength: 32, description: 'E.164 phone number, e.g. +14155550123' })),
  },
  { additionalProperties: false, examples: [{ email: 'ada@example.com', password: 'correct horse battery', name: 'Ada Lovelace' }] },
);

export const AgentRegistration = Type.Object(
  {
    apiKey: Type.String({ description: 'Shown once: store it at once' }),
    agentHandle: HandleSchema,
    stablecoinWalletId: Type.String(),
    depositAddress: Type.String({ description: 'Polygon address for USDC and EURC from outside, EIP-55 checksummed' }),
    isNewAccount: Type.Boolean({ description: 'true (201) when this call created the account' }),
  },
  {
    examples: [
      {
        apiKey: API_KEY_EXAMPLE,
        agentHandle: 'PA-7KQ2M9XD',
        stablecoinWalletId: WALLET_EXAMPLE,
        depositAddress: ADDRESS_EXAMPLE,
        isNewAccount: true,
      },
    ],
  },
);

export const StablecoinRegistration = Type.Object(
  {
    apiKey: Type.String({ description: 'Shown once: store it at once' }),
    stablecoinWalletId: Type.String(),
    handle: HandleSchema,
    email: Type.String(),
    depositAddress: Type.String({ description: 'Polygon address for USDC and EURC from outside, EIP-55 checksummed' }),
    isNewAccount: Type.Boolean({ description: 'true (201) when this call created the account' }),
  },
  {
    examples: [
      {
        apiKey: API_KEY_EXAMPLE,
        stablecoinWalletId: WALLET_EXAMPLE,
        handle: 'PA-7KQ2M9XD',
        email: 'ada@example.com',
        depositAddress: ADDRESS_EXAMPLE,
        isNewAccount: true,
      },
    ],
  },
);

export const AccountQuery = Type.Object(
  {
    email: Type.Optional(
      Type.String({ maxLength: 254, description: 'E-mail address; give this or handle', examples: ['ada@example.com'] }),
    ),
    handle: Type.Optional(
      Type.String({ maxLength: 32, description: 'Handle, PA- followed by 8 characters; give this or email', examples: ['PA-7KQ2M9XD'] }),
    ),
  },
  { additionalProperties: false },
);

export const LookupResult = Type.Object(
  { found: Type.Literal(true), handle: HandleSchema, agentHandle: HandleSchema, firstName: Type.String() },
  { examples: [{ found: true, handle: 'PA-7KQ2M9XD', agentHandle: 'PA-7KQ2M9XD', firstName: 'Ada' }] },
);

export const CheckResult = Type.Object(
  {
    exists: Type.Boolean(),
    found: Type.Boolean(),
    firstName: Type.Optional(Type.String()),
    agentHandle: Type.Optional(HandleSchema),
    handle: Type.Optional(HandleSchema),
    email: Type.Optional(Type.String({ description: 'Only when the query was by email' })),
  },
  {
    description: 'Found: both shapes of the contract merged. Not found: {exists: false, found: false}.',
    examples: [
      { exists: true, found: true, firstName: 'Ada', agentHandle: 'PA-7KQ2M9XD', handle: 'PA-7KQ2M9XD', email: 'ada@example.com' },
      { exists: false, found: false },
    ],
  },
);

export const Profile = Type.Object(
  {
    agentHandle: HandleSchema,
    email: Type.String(),
    name: Type.String(),
    phone: Type.Union([Type.String(), Type.Null()]),
    website: Type.Union([Type.String(), Type.Null()]),
    discoverable: Type.Boolean({ description: 'Listed in the public directory (/nano/search)' }),
    stablecoinWalletId: Type.Union([Type.String(), Type.Null()]),
    depositAddress: Type.Union([Type.String(), Type.Null()]),
    paymentMethods: Type.Object(
      {
        card: Type.Boolean({ description: 'A card is saved: `instant` transfers can be paid' }),
        bankDebit: Type.Boolean({ description: 'Bank debit is set up: `ach` transfers can be paid' }),
        payouts: Type.Boolean({ description: 'A payout account is ready: received fiat can be paid out' }),
      },
      { description: 'What the account has set up, so that a client can offer the setup link before trying' },
    ),
  },
  {
    examples: [
      {
        agentHandle: 'PA-7KQ2M9XD',
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        phone: '+14155550123',
        website: 'https://ada.example.com',
        discoverable: true,
        stablecoinWalletId: WALLET_EXAMPLE,
        depositAddress: ADDRESS_EXAMPLE,
        paymentMethods: { card: true, bankDebit: false, payouts: false },
      },
    ],
  },
);

export const ProfilePatch = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Letters, marks, spaces, apostrophes, hyphens and dots (400 `invalid_field` otherwise)',
      }),
    ),
    phone: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Null()], { description: 'E.164 phone number; null removes it' })),
    website: Type.Optional(
      Type.Union([Type.String({ maxLength: 200 }), Type.Null()], { description: 'http or https URL; null removes it' }),
    ),
    discoverable: Type.Optional(Type.Boolean({ description: 'Listed in the public directory (/nano/search)' })),
  },
  { additionalProperties: false, examples: [{ website: 'https://ada.example.com', discoverable: true }] },
);

export const PasswordChange = Type.Object(
  {
    currentPassword: Type.String({ minLength: 1, maxLength: 256 }),
    newPassword: Type.String({ minLength: 8, maxLength: 256, description: 'At least 8 characters' }),
    revokeOtherKeys: Type.Optional(Type.Boolean({ description: 'Also revoke every other key of the account (default false)' })),
  },
  {
    additionalProperties: false,
    examples: [{ currentPassword: 'correct horse battery', newPassword: 'staple battery horse', revokeOtherKeys: true }],
  },
);

export const PasswordChanged = Type.Object(
  { changed: Type.Literal(true), revokedKeys: Type.Integer({ minimum: 0, description: 'How many other keys were revoked' }) },
  { examples: [{ changed: true, revokedKeys: 2 }] },
);

export const KeyRevoked = Type.Object({ revoked: Type.Literal(true) }, { examples: [{ revoked: true }] });

export const KeysRevoked = Type.Object(
  { revoked: Type.Integer({ minimum: 0, description: 'How many keys were revoked, the calling one included' }) },
  { examples: [{ revoked: 3 }] },
);

export const WalletResponse = Type.Object(
  {
    walletId: Type.String(),
    existing: Type.Boolean({ description: 'Always true: every account gets its wallet at registration' }),
    depositAddress: Type.String(),
  },
  { examples: [{ walletId: WALLET_EXAMPLE, existing: true, depositAddress: ADDRESS_EXAMPLE }] },
);
