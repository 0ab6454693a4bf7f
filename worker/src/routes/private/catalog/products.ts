import { createRoute, z } from "@hono/zod-openapi";
import { AdminProduct, InventoryPatch, InventoryQuery, InventoryView, PathIdParam, ProductCreate, ProductListQuery, ProductPatch } from "../../../contract/catalog-write";
import { problemResponse } from "../../../contract/problem";
import { createRouter } from "../../router";
import { getInventory, updateInventory } from "../../../manage/catalog/inventory";
import { createProduct, getProduct, listProducts, updateProduct } from "../../../manage/catalog/products";
import { json } from "../openapi-parts";
import { changeResponses, keyActor, readResponses } from "./parts";

const tags = ["Catalog (administration)"];
const One = z.object({ data: AdminProduct });
const notFound = { 404: problemResponse("No such product in this business.") };

const list = createRoute({
  method: "get",
  path: "/catalog/products",
  operationId: "adminListProducts",
  tags,
  summary: "The business's products, archived ones on request",
  description: "Every product with its rates, timeslots, rooms and package contents, in id order. `listed` says whether GET /products (public API) lists it.",
  request: { query: ProductListQuery },
  responses: { 200: json(z.object({ data: z.array(AdminProduct) }), "The products."), ...readResponses },
});

const create = createRoute({
  method: "post",
  path: "/catalog/products",
  operationId: "adminCreateProduct",
  tags,
  summary: "Make a product",
  description:
    "Any type (package, accommodation, activity, rental, service, bundle, item) with its texts and translations, duration (min and max stay, " +
    "check-in weekdays), capacity, weekly timeslots, rooms and beds (accommodations), rates (money in major units of the default currency) and " +
    "package contents. The id (and, unless sent, the ref) is made by the service. References (location, categories, seasons, products of a package) " +
    "must be the business's and not archived: a 422 names each one missing. Visibility: GET /products lists a product that is not archived and has a " +
    "front-office category or is promoted; any product not archived can be fetched, linked and booked by its id. Sends ProductCreated.",
  request: { body: { content: { "application/json": { schema: ProductCreate } }, required: true } },
  responses: { 201: json(One, "The product."), ...changeResponses },
});

const read = createRoute({
  method: "get",
  path: "/catalog/products/{id}",
  operationId: "adminGetProduct",
  tags,
  summary: "One product, archived or not",
  request: { params: PathIdParam },
  responses: { 200: json(One, "The product."), ...readResponses, ...notFound },
});

const patch = createRoute({
  method: "patch",
  path: "/catalog/products/{id}",
  operationId: "adminUpdateProduct",
  tags,
  summary: "Change, archive or restore a product",
  description:
    "Only the fields sent change (each replaced whole: rates, timeslots, package). `archived: true` archives it: it leaves the public API and the widget, " +
    "bookings and carts keep it (refused while a live package includes it); `archived: false` restores it. A change that would bring a capacity below " +
    "what is held or booked on some date (rooms, capacity, timeslots) is a 409 listing the dates and counts. Bookings keep their prices. Sends " +
    "ProductUpdated, ProductArchived or ProductRestored.",
  request: { params: PathIdParam, body: { content: { "application/json": { schema: ProductPatch } }, required: true } },
  responses: { 200: json(One, "The product as it is now."), ...changeResponses, ...notFound },
});

const inventory = createRoute({
  method: "get",
  path: "/catalog/products/{id}/inventory",
  operationId: "adminGetInventory",
  tags,
  summary: "Capacity, blocks, bookings and holds per date",
  description: "Each date of the window (and each timeslot of it for timeslot products): capacity and where it comes from, blocked, booked, held, available.",
  request: { params: PathIdParam, query: InventoryQuery },
  responses: { 200: json(InventoryView, "The window."), ...readResponses, ...notFound },
});

const setInventory = createRoute({
  method: "patch",
  path: "/catalog/products/{id}/inventory",
  operationId: "adminUpdateInventory",
  tags,
  summary: "Set capacity, block or unblock dates",
  description:
    "Over from..to (optionally only some weekdays, or one timeslot): `capacity` sets the units on each date (null: back to the product's own), " +
    "`blocked` blocks or unblocks. Refused with 409 (capacity_below_used, listing each date with its capacity, booked and held) where a date would hold " +
    "less than is booked or held; nothing changes then. Takes effect at once. Sends InventoryUpdated.",
  request: { params: PathIdParam, body: { content: { "application/json": { schema: InventoryPatch } }, required: true } },
  responses: { 200: json(InventoryView, "The window as it is now."), ...changeResponses, ...notFound },
});

export const productAdminRoutes = createRouter()
  .openapi(list, async (c) => {
    const q = c.req.valid("query");
    return c.json({ data: await listProducts(c.env.DB, c.get("tenant").businessId, q) }, 200);
  })
  .openapi(create, async (c) => {
    const { businessId } = c.get("tenant");
    const data = await createProduct(c.env, keyActor(c), businessId, c.req.valid("json"), c.get("now"));
    c.header("Location", `/private/catalog/products/${data.id}`);
    return c.json({ data }, 201);
  })
  .openapi(read, async (c) => c.json({ data: await getProduct(c.env.DB, c.get("tenant").businessId, c.req.valid("param").id) }, 200))
  .openapi(patch, async (c) => {
    const { businessId } = c.get("tenant");
    const data = await updateProduct(c.env, keyActor(c), businessId, c.req.valid("param").id, c.req.valid("json"), c.get("now"));
    return c.json({ data }, 200);
  })
  .openapi(inventory, async (c) => {
    const data = await getInventory(c.env.DB, c.get("tenant").businessId, c.req.valid("param").id, c.req.valid("query"), c.get("now"));
    return c.json({ data }, 200);
  })
  .openapi(setInventory, async (c) => {
    const { businessId } = c.get("tenant");
    const data = await updateInventory(c.env, keyActor(c), businessId, c.req.valid("param").id, c.req.valid("json"), c.get("now"));
    return c.json({ data }, 200);
  });
