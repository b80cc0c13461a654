// The environment through the schema: env-schema runs Ajv over the variables schema.ts declares,
// filling in defaults and refusing the first value out of its shape or bounds with a ConfigError
// that names the variable (refusal.ts).
import { Ajv, type ErrorObject } from 'ajv';
import envSchema from 'env-schema';
import { ConfigError } from './config-error.js';
import { ANNOTATIONS } from './kinds.js';
import { refusalOf } from './refusal.js';
import { CONFIG_VARIABLES, configSchema, variableSchema, type ConfigEnv } from './schema.js';

/** The process environment, or what a test or script hands loadConfig instead. */
export type RawEnv = Readonly<Record<string, string | undefined>>;

/** Decimal digits only: Ajv's own coercion would also take " 5", "5.0", "1e3" and "0x10". */
const WHOLE_NUMBER = /^\d+$/;

function isUrl(value: string): boolean {
  return URL.canParse(value);
}

/**
 * One instance for every call, so the schema is compiled once. Whole numbers are converted before
 * (wholeNumbers), not coerced; the first error is the one reported, in the schema's order.
 */
const ajv = new Ajv({ allErrors: false, useDefaults: true, coerceTypes: false, removeAdditional: true });
ajv.addVocabulary([...ANNOTATIONS]);
ajv.addFormat('url', { type: 'string', validate: isUrl });
ajv.addKeyword({
  keyword: 'protocols',
  type: 'string',
  schemaType: 'array',
  errors: false,
  // A value that is not a URL at all is the `url` format's to refuse.
  validate: (protocols: readonly string[], value: string) => !isUrl(value) || protocols.includes(new URL(value).protocol),
});

/**
 * The variables that are set, as the schema takes them: an empty value means unset (unless the
 * variable says `keepEmpty`), and a whole number written in digits becomes a number; any other
 * spelling stays text, which the schema then refuses as not a whole number.
 */
function givenValues(raw: RawEnv): Record<string, string | number> {
  const given: Record<string, string | number> = {};
  for (const name of CONFIG_VARIABLES) {
    const value = raw[name];
    const schema = variableSchema(name);
    if (value === undefined || (value === '' && schema.keepEmpty !== true)) continue;
    given[name] = schema.type === 'integer' && WHOLE_NUMBER.test(value) ? Number(value) : value;
  }
  return given;
}

/** Every variable of the schema, validated, with its default when it was not set. */
export function readEnv(raw: RawEnv): ConfigEnv {
  const given = givenValues(raw);
  try {
    // Only `given`: not process.env as well (env), nor a .env file (dotenv).
    return envSchema<ConfigEnv>({ schema: configSchema, data: given, env: false, dotenv: false, ajv });
  } catch (error) {
    const first = (error as { errors?: ErrorObject[] }).errors?.[0];
    if (first === undefined) throw error;
    throw new ConfigError(refusalOf(first, given));
  }
}
