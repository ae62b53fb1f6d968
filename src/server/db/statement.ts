import { fillPlaceholders, getTableColumns, type SQL, type Table } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

/**
 * Named (prepared) statements for the hot paths (decision 051). A statement is built once, from
 * a Drizzle `sql` template whose changing values are `sql.placeholder(name)`s: every other value
 * in it becomes a fixed parameter, so its text never changes and Postgres parses and plans it
 * once per connection. Run it with `database.runPrepared(statement, values)`.
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
  const { sql, params } = dialect.sqlToQuery(query);
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
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}
