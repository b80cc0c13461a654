// npm run docs:config: the README's table of environment variables, generated from the schema
// (src/config/schema.ts): one row per variable, its name, its default and its description. It
// rewrites the table between the two markers in README.md and prints it;
// test/unit/config-table.test.ts fails when the README's table differs from what this generates.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CONFIG_VARIABLES, variableSchema, type ConfigVariable } from '../src/config/schema.js';

export const README_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md');
export const TABLE_START = '<!-- config-table:start -->';
export const TABLE_END = '<!-- config-table:end -->';

/** A table cell: markdown on one line, without the `|` that would end it. */
function cell(name: ConfigVariable, text: string): string {
  if (/[|\n]/.test(text)) throw new Error(`${name}: a README cell cannot hold "|" or a line break: ${text}`);
  return text;
}

function defaultCell(name: ConfigVariable): string {
  const schema = variableSchema(name);
  if (schema.default !== undefined) return `\`${schema.default}\``;
  return cell(name, schema.whenUnset ?? 'unset');
}

/** One row per variable, in the schema's order. */
export function configTableRows(): string[] {
  return CONFIG_VARIABLES.map((name) => `| \`${name}\` | ${defaultCell(name)} | ${cell(name, variableSchema(name).description)} |`);
}

export function configTable(): string {
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...configTableRows()].join('\n');
}

function markers(readme: string): { start: number; end: number } {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start === -1 || end < start) throw new Error(`README.md has no ${TABLE_START} … ${TABLE_END}`);
  return { start: start + TABLE_START.length, end };
}

/** The table between the markers, as the README has it. */
export function readmeConfigTable(readme: string): string {
  const { start, end } = markers(readme);
  return readme.slice(start, end).trim();
}

/** The README with `table` between the markers. */
export function withConfigTable(readme: string, table: string): string {
  const { start, end } = markers(readme);
  return `${readme.slice(0, start)}\n${table}\n${readme.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const table = configTable();
  fs.writeFileSync(README_PATH, withConfigTable(fs.readFileSync(README_PATH, 'utf8'), table));
  console.log(table);
  console.log(`\n${path.relative(process.cwd(), README_PATH)}: ${CONFIG_VARIABLES.length} variables`);
}
