/** Developers: API keys and webhooks (owners). */
import type { Area } from "../kit/area";
import { developersPage, hookCreate, hookDelete, hookDeliveries, hookEnable, hookRedeliver, keyCreate, keyRevoke, stripeSave } from "./developers";

export const developers: Area = {
  name: "developers",
  nav: [{ key: "developers", path: "/developers", permission: "developers" }],
  routes: [
    { method: "get", path: "/:business/developers", permission: "developers", handler: developersPage },
    { method: "post", path: "/:business/developers/keys", permission: "developers", handler: keyCreate },
    { method: "post", path: "/:business/developers/stripe", permission: "developers", handler: stripeSave },
    { method: "post", path: "/:business/developers/keys/:id/revoke", permission: "developers", handler: keyRevoke },
    { method: "post", path: "/:business/developers/webhooks", permission: "developers", handler: hookCreate },
    { method: "get", path: "/:business/developers/webhooks/:id", permission: "developers", handler: hookDeliveries },
    { method: "post", path: "/:business/developers/webhooks/:id/delete", permission: "developers", handler: hookDelete },
    { method: "post", path: "/:business/developers/webhooks/:id/enable", permission: "developers", handler: hookEnable },
    { method: "post", path: "/:business/developers/webhooks/:id/redeliver", permission: "developers", handler: hookRedeliver },
  ],
};
