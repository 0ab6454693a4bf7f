/**
 * Prices, Seasons and a product's Inventory: what a product costs and when it can be sold. The
 * inventory screen hangs under the product's URL (linked from its editor) but is this area's.
 */
import type { Area } from "../kit/area";
import { inventoryBlock, inventoryCapacity, inventoryPage, inventoryTimeslots } from "./inventory";
import { pricesPage, pricesSave } from "./prices";
import { seasonArchive, seasonCreate, seasonEditPage, seasonSave, seasonsPage } from "./seasons";

export const prices: Area = {
  name: "prices",
  nav: [{ key: "prices", path: "/prices", permission: "prices" }],
  routes: [
    { method: "get", path: "/:business/prices", permission: "prices", handler: pricesPage },
    { method: "post", path: "/:business/prices", permission: "prices", handler: pricesSave },
    { method: "get", path: "/:business/seasons", permission: "catalog", handler: seasonsPage },
    { method: "post", path: "/:business/seasons", permission: "catalog", handler: seasonCreate },
    { method: "get", path: "/:business/seasons/:id", permission: "catalog", handler: seasonEditPage },
    { method: "post", path: "/:business/seasons/:id", permission: "catalog", handler: seasonSave },
    { method: "post", path: "/:business/seasons/:id/archive", permission: "catalog", handler: seasonArchive },
    { method: "get", path: "/:business/catalog/products/:id/inventory", permission: "inventory", handler: inventoryPage },
    // capacity and timeslots are the catalog's rules; blocking is the Calendar's permission
    { method: "post", path: "/:business/catalog/products/:id/inventory/capacity", permission: "catalog", handler: inventoryCapacity },
    { method: "post", path: "/:business/catalog/products/:id/inventory/blocks", permission: "inventory", handler: inventoryBlock },
    { method: "post", path: "/:business/catalog/products/:id/inventory/timeslots", permission: "catalog", handler: inventoryTimeslots },
  ],
};
