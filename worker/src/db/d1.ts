/**
 * What a query needs of a D1 database: `prepare` and `batch`. Both a binding (`D1Database`, which
 * sends every query to the database's primary) and a session of it (`D1DatabaseSession`, from
 * `withSession`: its reads may be served by a replica, docs/design.md "D1 sessions") have them, so
 * every function that runs queries takes this, and a request's `c.env.DB` may be either
 * (db/session.ts). What only a binding has (`exec`, `withSession`) is asked of `D1Database` by name.
 */
export type D1 = Pick<D1Database, "prepare" | "batch">;

/** The Worker's bindings with `DB` as a query needs it: a binding or a session (a request's `c.env`). */
export type D1Env = Omit<Env, "DB"> & { DB: D1 };
