import { DuckDBInstance } from '@duckdb/node-api';

/** Runs one query in a fresh in-memory DuckDB, as an analyst reading our files would, and closes it. */
export async function queryDuckDb(sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJS();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
