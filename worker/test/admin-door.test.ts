/**
 * The back office's requests are logged as the APIs' are: what the back office learns (whose
 * session, which business) reaches the request's log line, under the request's own id.
 */
import { describe, expect, it, vi } from "vitest";
import { createStaff, signedIn } from "./admin-fixtures";
import { DEMO_BUSINESS_ID } from "./helpers";

describe("the back office's door", () => {
  it("logs a signed-in page under its business and staff member, with the request's own id", async () => {
    const { email } = await createStaff(DEMO_BUSINESS_ID, "manager");
    const manager = await signedIn("demo", email);
    const log = vi.spyOn(console, "log");
    let res: Response;
    let logged: string[];
    try {
      res = await manager.get("/admin/demo/today", { "X-Request-Id": "door-test-1" });
      logged = log.mock.calls.map((args) => String(args[0]));
    } finally {
      log.mockRestore();
    }
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Request-Id")).toBe("door-test-1");
    const lines = logged.filter((l) => l.includes('"request_id":"door-test-1"'));
    expect(lines.map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ path: "/admin/demo/today", status: 200, business: "demo", key: `staff:${email}` })]);
  });
});
