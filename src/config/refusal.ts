// The one line a refused variable prints: its name, what it accepts and, unless the variable may
// hold a secret or a password (`quoted` unset), the value given.
import type { ErrorObject } from 'ajv';
import { configSchema, variableSchema, type ConfigVariable } from './schema.js';

/** A value as a refusal repeats it: on one line, and not at any length. */
function quote(value: unknown): string {
  return JSON.stringify(String(value).slice(0, 100));
}

/** "NAME must ..." for a value that is not in the variable's shape (its `refusal`). */
export function refusal(name: ConfigVariable, value: string): string {
  const schema = variableSchema(name);
  return `${name} ${schema.refusal}${schema.quoted ? `, got ${quote(value)}` : ''}`;
}

function isVariable(name: string): name is ConfigVariable {
  return Object.hasOwn(configSchema.properties, name);
}

/** The refusal for the first error Ajv found in `given`, the values handed to the schema. */
export function refusalOf(error: ErrorObject, given: Readonly<Record<string, unknown>>): string {
  const name = error.instancePath.slice(1);
  if (!isVariable(name)) return `the configuration ${error.message ?? 'is not valid'}`;
  const schema = variableSchema(name);
  const value = given[name];
  switch (error.keyword) {
    case 'type':
      // Values reach the schema as text, a whole number's digits as a number (read-env.ts): only a
      // whole number can fail its type.
      return `${name} must be a whole number, got ${quote(value)}`;
    case 'minimum':
    case 'maximum':
      return `${name} must be between ${schema.minimum} and ${schema.maximum}, got ${String(value)}`;
    case 'enum':
      return `${name} must be one of ${schema.enum?.join(', ')}, got ${quote(value)}`;
    case 'pattern':
      return refusal(name, String(value));
    case 'format':
      return `${name} must be a URL`;
    case 'protocols':
      return `${name} must use ${schema.protocols?.join(' or ')}`;
    default:
      return `${name} ${error.message ?? 'is not valid'}`;
  }
}
