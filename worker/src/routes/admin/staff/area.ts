/** Staff: invite, change a role, remove (owners). */
import type { Area } from "../kit/area";
import { staffInvite, staffPage, staffRemove, staffRole } from "./staff";

export const staff: Area = {
  name: "staff",
  nav: [{ key: "staff", path: "/staff", permission: "staff" }],
  routes: [
    { method: "get", path: "/:business/staff", permission: "staff", handler: staffPage },
    { method: "post", path: "/:business/staff/invite", permission: "staff", handler: staffInvite },
    { method: "post", path: "/:business/staff/:id/role", permission: "staff", handler: staffRole },
    { method: "post", path: "/:business/staff/:id/remove", permission: "staff", handler: staffRemove },
  ],
};
