import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { ExceptionFilter } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import express from 'express';
import { Client } from 'pg';

/** Statements whose failure a filter is tested against: each raises one kind of Postgres error. */
export const FAILING_STATEMENTS = {
  /** 22003 numeric_value_out_of_range, as a client's id beyond an integer column raises it. */
  'int4-overflow': { sql: 'SELECT $1::int4', params: ['99999999999'] },
  /** 22P02 invalid_text_representation. */
  'bad-integer-text': { sql: 'SELECT $1::int8', params: ['1x'] },
  /** 23505 unique_violation, as two concurrent requests creating the same name raise it (temporary tables, dropped at commit). */
  'unique-violation': {
    sql: `DO $$ BEGIN CREATE TEMP TABLE filter_probe_u (name text PRIMARY KEY) ON COMMIT DROP; INSERT INTO filter_probe_u VALUES ('a'), ('a'); END $$`,
    params: [],
  },
  /** 23503 foreign_key_violation on insert: the row referred to is gone (a conversation deleted while a message is added). */
  'foreign-key-missing': {
    sql: `DO $$ BEGIN CREATE TEMP TABLE filter_probe_p (id int PRIMARY KEY) ON COMMIT DROP; CREATE TEMP TABLE filter_probe_c (p int REFERENCES filter_probe_p) ON COMMIT DROP; INSERT INTO filter_probe_c VALUES (1); END $$`,
    params: [],
  },
  /** 23503 foreign_key_violation on delete: the row is still referred to. */
  'foreign-key-referenced': {
    sql: `DO $$ BEGIN CREATE TEMP TABLE filter_probe_p2 (id int PRIMARY KEY) ON COMMIT DROP; CREATE TEMP TABLE filter_probe_c2 (p int REFERENCES filter_probe_p2) ON COMMIT DROP; INSERT INTO filter_probe_p2 VALUES (1); INSERT INTO filter_probe_c2 VALUES (1); DELETE FROM filter_probe_p2; END $$`,
    params: [],
  },
  /** 42P01 undefined_table: a server bug, never the client's doing. */
  'missing-table': { sql: 'SELECT * FROM no_such_table_here', params: [] },
} as const;

export type FailingStatement = keyof typeof FAILING_STATEMENTS;

export interface FilterServer {
  /** GET the path; the filter answers the error of the named statement, run on a real Postgres. */
  answer(statement: FailingStatement, path?: string): Promise<{ status: number; contentType: string; body: Record<string, unknown> }>;
  stop(): Promise<void>;
}

/**
 * An HTTP server whose every request runs a failing statement on Postgres and hands the error to
 * an exception filter, as Nest does: a service's filter is tested on real errors and a real
 * response. The request's path decides for filters that answer by path (OAuth, the API envelope).
 */
export async function serveFilter(filter: ExceptionFilter, databaseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres'): Promise<FilterServer> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const app = express();
  app.use((req, res) => {
    const { sql, params } = FAILING_STATEMENTS[String(req.query['statement']) as FailingStatement];
    client.query(sql, [...params]).then(
      () => res.status(204).end(),
      (e: unknown) => filter.catch(e, new ExecutionContextHost([req, res])),
    );
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    answer: async (statement, path = '/probe') => {
      const r = await fetch(`${base}${path}?statement=${statement}`);
      return { status: r.status, contentType: r.headers.get('content-type') ?? '', body: (await r.json()) as Record<string, unknown> };
    },
    stop: async () => {
      await new Promise((resolve) => server.close(resolve));
      await client.end();
    },
  };
}
