import type { D1 } from "./d1";

/**
 * A D1 statement as plain data (its SQL and its bound values), to be carried to the business's
 * cart desk (durable/cart-desk.ts), which makes it again on its own connection and sends it with
 * the other requests' of the moment. A D1PreparedStatement does not say what it holds, so the
 * cart routes build theirs through `recordingDb`, whose statements remember it.
 */
export interface PlainStatement {
  sql: string;
  params: unknown[];
}

/** What the cart desk answers a batch: its results and the bookmark of its commit (and which round trip of the desk's it rode), or D1's error. */
export type DeskAnswer = { ok: true; results: D1Result[]; bookmark: string | null; round: number } | { ok: false; error: string };

/** Tests only (honoured with ALLOW_TEST_CLOCK=1): what the desk does wrong with a batch. */
export type DeskFault = "crash-after-commit";

/** A statement that remembers its SQL and values; it runs as the statement it wraps. */
class Recorded implements D1PreparedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    readonly plain: PlainStatement,
  ) {}
  bind(...values: unknown[]): D1PreparedStatement {
    return new Recorded(this.inner.bind(...values), { sql: this.plain.sql, params: values });
  }
  first<T = unknown>(colName: string): Promise<T | null>;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  first(colName?: string): Promise<unknown> {
    return colName === undefined ? this.inner.first() : this.inner.first(colName);
  }
  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.inner.run<T>();
  }
  all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.inner.all<T>();
  }
  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  raw(options?: { columnNames?: boolean }): Promise<unknown> {
    return options?.columnNames ? this.inner.raw({ columnNames: true }) : this.inner.raw({ columnNames: false });
  }
}

const unwrap = (s: D1PreparedStatement) => (s instanceof Recorded ? s.inner : s);

/**
 * `db` as before (every statement it prepares runs there, alone or in its batches), whose
 * statements can also be told as plain data (`plainOf`).
 */
export function recordingDb(db: D1): D1 {
  return {
    prepare: (sql: string) => new Recorded(db.prepare(sql), { sql, params: [] }),
    batch: <T = unknown>(statements: D1PreparedStatement[]) => db.batch<T>(statements.map(unwrap)),
  };
}

/** What a statement of a `recordingDb` holds; throws for any other (it cannot be told). */
export function plainOf(statement: D1PreparedStatement): PlainStatement {
  if (!(statement instanceof Recorded)) throw new Error("a statement for the cart desk must be made through recordingDb (db/plain-statements.ts)");
  return statement.plain;
}

/** The statements again, made on `db` (the desk's connection). */
export function madeAgain(db: D1, statements: PlainStatement[]): D1PreparedStatement[] {
  return statements.map((s) => db.prepare(s.sql).bind(...s.params));
}
