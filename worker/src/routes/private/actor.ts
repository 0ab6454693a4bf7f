import type { Context } from "hono";
import type { Actor } from "../../db/audit-log";
import type { AppEnv } from "../../db/request-env";

/** Who makes a private API change: the API key, by its id and name (the name the audit log shows). */
export function keyActor(c: Context<AppEnv>): Actor {
  const tenant = c.get("tenant");
  return { kind: "key", id: tenant.clientId.replace(/^key:/, ""), name: tenant.actor, requestId: c.get("requestId") };
}
