/** The Audit log (owners, managers). */
import type { Area } from "../kit/area";
import { auditPage } from "./audit";

export const audit: Area = {
  name: "audit",
  nav: [{ key: "audit", path: "/audit", permission: "audit" }],
  routes: [{ method: "get", path: "/:business/audit", permission: "audit", handler: auditPage }],
};
