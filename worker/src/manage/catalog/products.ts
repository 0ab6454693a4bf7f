/**
 * Products: create, read, change (fields, rates, timeslots, rooms, package contents) and archive.
 * Every change goes through commit() (manage/core.ts): one batch with its audit entry and event.
 */
import { ProductCreate, ProductPatch, type AdminProduct } from "../../contract/catalog-write";
import { applyProductInput, defaultCurrency, IdAllocator, productDefaults, productView, refFromTitle, type CatalogState, type ProductEntity } from "../../domain/catalog-write";
import { emptyPlan, planEntity } from "../../domain/catalog-plan";
import { duplicateRefs, indexOf, productProblems, productReferrers } from "../../domain/catalog-rules";
import { ApiError, type FieldError } from "../../lib/errors";
import { isoDateTime } from "../../lib/time";
import { commit, failIfInvalid, parseInput, readState, type Actor, type Store } from "../core";
import type { D1 } from "../../db/d1";

const currencyOf = (state: CatalogState) => defaultCurrency(state.settings)?.iso_code ?? "EUR";

/** The business's products, by id; `archived`: "false" (live), "true" or "all". */
export async function listProducts(db: D1, businessId: number, filter: { archived?: "false" | "true" | "all"; type?: string } = {}): Promise<AdminProduct[]> {
  const state = await readState(db, businessId);
  const archived = filter.archived ?? "false";
  return state.products
    .filter((p) => archived === "all" || (archived === "true") === (p.archived_at !== null))
    .filter((p) => filter.type === undefined || p.type === filter.type)
    .map((p) => productView(p, currencyOf(state)));
}

export async function getProduct(db: D1, businessId: number, id: number): Promise<AdminProduct> {
  const state = await readState(db, businessId);
  return productView(findProduct(state, id), currencyOf(state));
}

export function findProduct(state: CatalogState, id: number): ProductEntity {
  const p = state.products.find((x) => x.id === id);
  if (!p) throw new ApiError(404, "not_found", `Product ${id} was not found.`);
  return p;
}

/** What is wrong with the product as it would be, checked against the catalog as it would be. */
function problemsOf(state: CatalogState, product: ProductEntity): FieldError[] {
  const products = [...state.products.filter((p) => p.id !== product.id), product];
  const errors = productProblems(indexOf({ ...state, products }), product);
  if (product.ref !== null && duplicateRefs(products).has(product.ref)) errors.push({ path: "ref", message: `another product is ${product.ref} already` });
  return errors;
}

/** The product as it would be, checked against the catalog as it would be (422 naming every bad field). */
function checked(state: CatalogState, product: ProductEntity, errors: FieldError[]): void {
  failIfInvalid([...errors, ...problemsOf(state, product)]);
}

export async function createProduct(store: Store, actor: Actor, businessId: number, body: ProductCreate, now: Date): Promise<AdminProduct> {
  const db = store.DB;
  const input = parseInput(ProductCreate, body);
  const { result } = await commit(store, actor, businessId, now, (state) => {
    const ids = new IdAllocator(state.maxIds);
    const base = productDefaults(ids.take("products"), input.type, input.title);
    const errors: FieldError[] = [];
    if (input.type === "accommodation" && input.capacity !== undefined) errors.push({ path: "capacity", message: "an accommodation's capacity is its rooms (private) or rooms x beds_per_room (shared); leave it out" });
    if (input.type === "accommodation" && !input.accommodation) errors.push({ path: "accommodation", message: "required for an accommodation: rooms, beds_per_room, is_private (and gender for shared rooms)" });
    const { product, errors: inputErrors } = applyProductInput(base, input, currencyOf(state), (t) => ids.take(t));
    errors.push(...inputErrors);
    product.ref ??= refFromTitle(input.title, new Set(state.products.map((p) => p.ref).filter((r): r is string => r !== null)), "product");
    checked(state, product, errors);
    const plan = emptyPlan();
    planEntity(plan, state, "product", null, product);
    return { plan, result: productView(product, currencyOf(state)) };
  });
  return result;
}

export async function updateProduct(store: Store, actor: Actor, businessId: number, id: number, body: ProductPatch, now: Date): Promise<AdminProduct> {
  const db = store.DB;
  const input = parseInput(ProductPatch, body);
  const { result } = await commit(store, actor, businessId, now, (state) => {
    const ids = new IdAllocator(state.maxIds);
    const { before, product, errors } = patched(state, ids, id, input, now);
    checked(state, product, errors);
    const plan = emptyPlan();
    planEntity(plan, state, "product", before, product);
    return { plan, result: productView(product, currencyOf(state)) };
  });
  return result;
}

/**
 * Several products changed in ONE batch, all or none (the back office's Prices grid saves every
 * changed row at once). Each patch is checked as PATCH /private/catalog/products/{id}'s body; a
 * 422 names each bad field as `<product id>.<field>`.
 */
export async function updateProducts(store: Store, actor: Actor, businessId: number, changes: { id: number; patch: unknown }[], now: Date): Promise<AdminProduct[]> {
  const db = store.DB;
  const inputs: { id: number; input: ProductPatch }[] = [];
  const bad: FieldError[] = [];
  for (const { id, patch } of changes) {
    try {
      inputs.push({ id, input: parseInput(ProductPatch, patch) });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 422) throw err;
      bad.push(...((err.extra.errors ?? []) as FieldError[]).map((e) => ({ ...e, path: `${id}.${e.path}` })));
    }
  }
  failIfInvalid(bad);
  const { result } = await commit(store, actor, businessId, now, (state) => {
    const ids = new IdAllocator(state.maxIds);
    const plan = emptyPlan();
    const errors: FieldError[] = [];
    const views: AdminProduct[] = [];
    for (const { id, input } of inputs) {
      const { before, product, errors: own } = patched(state, ids, id, input, now);
      errors.push(...[...own, ...problemsOf(state, product)].map((e) => ({ ...e, path: `${id}.${e.path}` })));
      planEntity(plan, state, "product", before, product);
      views.push(productView(product, currencyOf(state)));
    }
    failIfInvalid(errors);
    return { plan, result: views };
  });
  return result;
}

/** The product `id` with `input` applied, and what the input itself gets wrong (409 when archiving one still in use). */
function patched(state: CatalogState, ids: IdAllocator, id: number, input: ProductPatch, now: Date): { before: ProductEntity; product: ProductEntity; errors: FieldError[] } {
  const before = findProduct(state, id);
  const errors: FieldError[] = [];
  if (input.type !== undefined && input.type !== before.type) errors.push({ path: "type", message: `a product's type cannot change (it is a ${before.type}); archive it and make a new one` });
  if (before.type === "accommodation" && input.capacity !== undefined) errors.push({ path: "capacity", message: "an accommodation's capacity is its rooms and beds; change accommodation instead" });
  if (before.type === "accommodation" && input.accommodation === null) errors.push({ path: "accommodation", message: "an accommodation needs its rooms and beds" });
  const { product, errors: inputErrors } = applyProductInput(before, { ...input, type: undefined }, currencyOf(state), (t) => ids.take(t));
  errors.push(...inputErrors);
  if (input.archived === true && before.archived_at === null) {
    product.archived_at = isoDateTime(now);
    const using = productReferrers(indexOf(state), id);
    if (using.length) {
      throw new ApiError(409, "in_use", `Product ${id} is in packages that are not archived: ${using.map((p) => `${p.title} (${p.id})`).join(", ")}. Take it out of them first.`);
    }
  }
  if (input.archived === false) product.archived_at = null;
  return { before, product, errors };
}
