/** Settings and the Widget (its allowed websites, look and embed code): both the business's settings. */
import type { Area } from "../kit/area";
import { settingsPage, settingsSave } from "./settings";
import { loopbackSave, originAdd, originRemove, themeSave, widgetPage } from "./widget";

export const settings: Area = {
  name: "settings",
  nav: [
    { key: "settings", path: "/settings", permission: "settings" },
    { key: "widget", path: "/widget", permission: "settings" },
  ],
  routes: [
    { method: "get", path: "/:business/settings", permission: "settings", handler: settingsPage },
    { method: "post", path: "/:business/settings/:section", permission: "settings", handler: settingsSave },
    { method: "get", path: "/:business/widget", permission: "settings", handler: widgetPage },
    { method: "post", path: "/:business/widget/origins/add", permission: "settings", handler: originAdd },
    { method: "post", path: "/:business/widget/origins/remove", permission: "settings", handler: originRemove },
    { method: "post", path: "/:business/widget/loopback", permission: "settings", handler: loopbackSave },
    { method: "post", path: "/:business/widget/theme", permission: "settings", handler: themeSave },
  ],
};
