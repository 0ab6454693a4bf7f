/**
 * The doors and one's own account: choosing the business, sign-in, an invitation, the password
 * reset (public: before a session), sign-out and the account (any signed-in user). The account
 * is reached from the header, not the navigation.
 */
import type { Area } from "../kit/area";
import { accountPage, languageChange, passwordChange } from "./account";
import { doorRoutes, signOutRoute } from "./auth";
import { resetRoutes } from "./reset";

export const auth: Area = {
  name: "auth",
  nav: [],
  routes: [
    ...doorRoutes,
    ...resetRoutes,
    { method: "post", path: "/:business/sign-out", permission: "signed-in", handler: signOutRoute },
    { method: "get", path: "/:business/account", permission: "signed-in", handler: accountPage },
    { method: "post", path: "/:business/account/password", permission: "signed-in", handler: passwordChange },
    { method: "post", path: "/:business/account/language", permission: "signed-in", handler: languageChange },
  ],
};
