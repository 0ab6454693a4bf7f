/** The Catalog: products by type, the product editor, and the five lookups' pages. */
import type { Area } from "../kit/area";
import { lookupRoutes } from "./lookups";
import { productArchive, productCreate, productNew, productPage, productSave } from "./product";
import { productsPage } from "./products";

export const catalog: Area = {
  name: "catalog",
  nav: [{ key: "catalog", path: "/catalog", permission: "catalog" }],
  routes: [
    { method: "get", path: "/:business/catalog", permission: "catalog", handler: productsPage },
    // "new" before ":id": the first declared wins
    { method: "get", path: "/:business/catalog/products/new", permission: "catalog", handler: productNew },
    { method: "post", path: "/:business/catalog/products", permission: "catalog", handler: productCreate },
    { method: "get", path: "/:business/catalog/products/:id", permission: "catalog", handler: productPage },
    { method: "post", path: "/:business/catalog/products/:id", permission: "catalog", handler: productSave },
    { method: "post", path: "/:business/catalog/products/:id/archive", permission: "catalog", handler: productArchive("archive") },
    { method: "post", path: "/:business/catalog/products/:id/restore", permission: "catalog", handler: productArchive("restore") },
    ...lookupRoutes,
  ],
};
