import {
  fillPlaceholders,
  getTableColumns,
  is,
  Param,
  Placeholder,
  type Column,
  type SQL,
  type Table,
} from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

/**
 * Named (prepared) statements for the hot paths (decisions 051, 063). A statement is built once,
 * from a Drizzle `sql` template whose changing values are `sql.placeholder(name)`s: every other
 * value in it is written into the text as a literal, so the text never changes and Postgres
 * parses it once per connection and plans it with those values known. As parameters they cost
 * a Bind of every one at each run, and they hid from the planner what a partial index needs
 * (`state < 'active'`), so it planned the statement again at each run rather than keep a plan
 * that could not use the index. Run it with `database.runPrepared(statement, values)`.
 */
export interface PreparedStatement {
  name: string;
  text: string;
  /** The statement's parameters: fixed values, and placeholders filled at each run. */
  params: unknown[];
}

export type RunPrepared = <R = Record<string, unknown>>(
  statement: PreparedStatement,
  values: Record<string, unknown>,
) => Promise<R[]>;

const dialect = new PgDialect();

export function prepareStatement(name: string, query: SQL): PreparedStatement {
  // A literal is written by its text: an array or an object would be written wrong, and a
  // backslash means something else to a server without standard_conforming_strings, so neither
  // may be inlined (the placeholders, filled at each run, may be anything).
  for (const param of dialect.sqlToQuery(query).params)
    if (
      !is(param, Placeholder) &&
      !(is(param, Param) && is(param.value, Placeholder)) &&
      ((param !== null && typeof param === 'object') ||
        (typeof param === 'string' && param.includes('\\')))
    )
      throw new Error(`${name}: ${String(param)} cannot be written into the statement`);
  const { sql, params } = dialect.sqlToQuery(query.inlineParams());
  return { name, text: sql, params };
}

/** The statement's parameters with `values` in its placeholders. */
export function statementValues(
  statement: PreparedStatement,
  values: Record<string, unknown>,
): unknown[] {
  return fillPlaceholders(statement.params, values);
}

/**
 * A row of `table` from its `row_to_json` (snake_case keys, timestamps as ISO text): the keys
 * and values Drizzle's own select would answer. Node-postgres and PGlite answer JSON alike.
 */
export function rowFromJson<T extends Table>(
  table: T,
  json: Record<string, unknown>,
): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, name, column] of columnsOf(table)) {
    const value = json[name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}

/** Each table's columns as (property, column name, column), listed once: every accept maps two rows. */
const tableColumns = new WeakMap<Table, readonly (readonly [string, string, Column])[]>();
function columnsOf(table: Table) {
  let columns = tableColumns.get(table);
  if (!columns) {
    columns = Object.entries(getTableColumns(table)).map(
      ([key, column]) => [key, column.name, column] as const,
    );
    tableColumns.set(table, columns);
  }
  return columns;
}
