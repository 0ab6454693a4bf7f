import type { CatalogSnapshot } from "../domain/catalog";
import type { D1 } from "./d1";

/**
 * How a request proves it may read a business, settled by ONE row that D1 returns together with
 * the request's own reads: for an API key, the key's record (revocation is seen at once), for
 * the widget's inner calls, the business itself. Either way the row carries the business's
 * `catalog_version`, which tells whether this process's catalog snapshot is still current.
 */
export interface Access {
  /** The statement whose row settles the request. */
  guard(db: D1): D1PreparedStatement;
  /** Checks the row (throws 401/403/404/429 as it must) and answers the catalog version. */
  check(row: Record<string, unknown> | null): Promise<number>;
  /** Headers to send whatever the answer (RateLimit-*). */
  headers: Record<string, string>;
  /** Set once settled. */
  version?: number;
  failure?: unknown;
  /** A settling read under way (calls running side by side wait for it rather than read again). */
  settling?: Promise<number>;
  /**
   * The same check as guard() and check(), made inside a write's own transaction (fuseAccess):
   * takes what must be taken before the write (the rate limit), and answers the statements to put
   * first in the write's batch, which abort it ('access_refused') unless the access holds and the
   * business's catalog is still at the snapshot's version, and what to make of their results once
   * the write is made.
   */
  fused?(db: D1, snap: CatalogSnapshot): Promise<{ statements: D1PreparedStatement[]; settle(results: D1Result[]): void }>;
}
