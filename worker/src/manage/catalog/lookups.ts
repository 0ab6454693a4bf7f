/**
 * The catalog's lookups (locations, categories, accommodation types, diets, levels) and its
 * seasons: create, read, change, archive. An archived lookup leaves the public API (settings'
 * diets and levels, products' references); archiving one that live products use is refused.
 */
import { LOOKUP_CREATE, LOOKUP_PATCH, SeasonCreate, SeasonPatch, type AdminLookup, type AdminSeason, type LookupCreate, type LookupKind, type LookupPatch } from "../../contract/catalog-write";
import { IdAllocator, LOOKUP_TABLE, lookupView, refFromTitle, seasonView, type CatalogState, type Lookup, type Season } from "../../domain/catalog-write";
import { emptyPlan, planEntity } from "../../domain/catalog-plan";
import { duplicateRefs, indexOf, lookupReferrers, seasonClashes, seasonProblems } from "../../domain/catalog-rules";
import { ApiError, type FieldError } from "../../lib/errors";
import { isoDateTime } from "../../lib/time";
import { commit, failIfInvalid, parseInput, readState, type Actor, type Store } from "../core";
import type { D1 } from "../../db/d1";

const NAMES: Record<LookupKind, string> = { location: "Location", category: "Category", accommodation_type: "Accommodation type", diet: "Diet", level: "Level" };
const TEXTED = (kind: LookupKind) => kind === "diet" || kind === "level";

const archivedFilter = (archived: "false" | "true" | "all" = "false") => (e: { archived_at: string | null }) => archived === "all" || (archived === "true") === (e.archived_at !== null);

export async function listLookups(db: D1, businessId: number, kind: LookupKind, archived?: "false" | "true" | "all"): Promise<AdminLookup[]> {
  const state = await readState(db, businessId);
  return state.lookups[kind].filter(archivedFilter(archived)).map((l) => lookupView(kind, l));
}

function findLookup(state: CatalogState, kind: LookupKind, id: number): Lookup {
  const l = state.lookups[kind].find((x) => x.id === id);
  if (!l) throw new ApiError(404, "not_found", `${NAMES[kind]} ${id} was not found.`);
  return l;
}

export async function getLookup(db: D1, businessId: number, kind: LookupKind, id: number): Promise<AdminLookup> {
  return lookupView(kind, findLookup(await readState(db, businessId), kind, id));
}

/** The fields of a lookup that its kind has; errors for the ones it has not. */
function applyLookupInput(kind: LookupKind, base: Lookup, input: LookupCreate | LookupPatch, errors: FieldError[]): Lookup {
  const l: Lookup = { ...base };
  if (input.ref !== undefined) l.ref = input.ref;
  if (input.title !== undefined) l.title = input.title;
  if (input.kind !== undefined) {
    if (kind !== "category") errors.push({ path: "kind", message: "only categories have a kind" });
    else l.kind = input.kind;
  }
  for (const f of ["description", "abbreviation"] as const) {
    if (input[f] === undefined) continue;
    if (!TEXTED(kind)) errors.push({ path: f, message: "only diets and levels have one" });
    else (l as any)[f] = input[f];
  }
  return l;
}

function checkRefs<T extends { id: number; ref: string | null }>(list: T[], entity: T, errors: FieldError[]) {
  const all = [...list.filter((x) => x.id !== entity.id), entity];
  if (entity.ref !== null && duplicateRefs(all).has(entity.ref)) errors.push({ path: "ref", message: `${entity.ref} is taken by another entry of this kind` });
}

const takenRefs = (list: { ref: string | null }[]) => new Set(list.map((x) => x.ref).filter((r): r is string => r !== null));

export async function createLookup(store: Store, actor: Actor, businessId: number, kind: LookupKind, body: LookupCreate, now: Date): Promise<AdminLookup> {
  const db = store.DB;
  const input: LookupCreate = parseInput(LOOKUP_CREATE[kind], body);
  const { result } = await commit(store, actor, businessId, now, (state) => {
    const errors: FieldError[] = [];
    const id = new IdAllocator(state.maxIds).take(LOOKUP_TABLE[kind]);
    const base: Lookup = { id, ref: null, title: input.title, archived_at: null, ...(TEXTED(kind) ? { description: "", abbreviation: null } : {}) };
    if (kind === "category" && input.kind === undefined) errors.push({ path: "kind", message: "required for a category: backoffice or frontoffice" });
    const lookup = applyLookupInput(kind, base, input, errors);
    lookup.ref ??= refFromTitle(input.title, takenRefs(state.lookups[kind]), kind.replace("_", "-"));
    checkRefs(state.lookups[kind], lookup, errors);
    failIfInvalid(errors);
    const plan = emptyPlan();
    planEntity(plan, state, kind, null, lookup);
    return { plan, result: lookupView(kind, lookup) };
  });
  return result;
}

export async function updateLookup(store: Store, actor: Actor, businessId: number, kind: LookupKind, id: number, body: LookupPatch, now: Date): Promise<AdminLookup> {
  const db = store.DB;
  const input: LookupPatch = parseInput(LOOKUP_PATCH[kind], body);
  const { result } = await commit(store, actor, businessId, now, (state) => {
    const before = findLookup(state, kind, id);
    const errors: FieldError[] = [];
    if (kind === "category" && input.kind !== undefined && input.kind !== before.kind && lookupReferrers(indexOf(state), kind, id).length) {
      errors.push({ path: "kind", message: "products use this category; a category's kind cannot change while they do" });
    }
    const lookup = applyLookupInput(kind, before, input, errors);
    if (input.archived === true && before.archived_at === null) {
      const using = lookupReferrers(indexOf(state), kind, id);
      if (using.length) {
        throw new ApiError(409, "in_use", `${NAMES[kind]} ${id} (${before.title}) is used by products that are not archived: ${using.map((p) => `${p.title} (${p.id})`).join(", ")}. Change them first.`);
      }
      lookup.archived_at = isoDateTime(now);
    }
    if (input.archived === false) lookup.archived_at = null;
    checkRefs(state.lookups[kind], lookup, errors);
    failIfInvalid(errors);
    const plan = emptyPlan();
    planEntity(plan, state, kind, before, lookup);
    return { plan, result: lookupView(kind, lookup) };
  });
  return result;
}

// ---- Seasons ----

export async function listSeasons(db: D1, businessId: number, archived?: "false" | "true" | "all"): Promise<AdminSeason[]> {
  return (await readState(db, businessId)).seasons.filter(archivedFilter(archived)).map(seasonView);
}

function findSeason(state: CatalogState, id: number): Season {
  const s = state.seasons.find((x) => x.id === id);
  if (!s) throw new ApiError(404, "not_found", `Season ${id} was not found.`);
  return s;
}

export async function getSeason(db: D1, businessId: number, id: number): Promise<AdminSeason> {
  return seasonView(findSeason(await readState(db, businessId), id));
}

/** Segments as sent: one with the id of an existing segment of the season keeps it, others get new ids. */
function segmentsOf(before: Season | null, sent: { id?: number; start_date: string; end_date: string }[], take: () => number, errors: FieldError[]) {
  const own = new Set(before?.segments.map((g) => g.id) ?? []);
  return sent
    .map((g, i) => {
      if (g.id !== undefined && !own.has(g.id)) errors.push({ path: `segments.${i}.id`, message: `no segment ${g.id} in this season; leave the id out for a new one` });
      return { id: g.id !== undefined && own.has(g.id) ? g.id : take(), start_date: g.start_date, end_date: g.end_date };
    })
    .sort((a, b) => (a.start_date < b.start_date ? -1 : a.start_date > b.start_date ? 1 : a.id - b.id));
}

export async function createSeason(store: Store, actor: Actor, businessId: number, body: SeasonCreate, now: Date): Promise<AdminSeason> {
  const db = store.DB;
  const input = parseInput(SeasonCreate, body);
  const { result } = await commit(store, actor, businessId, now, (state) => {
    const errors: FieldError[] = [];
    const ids = new IdAllocator(state.maxIds);
    const season: Season = {
      id: ids.take("seasons"),
      ref: input.ref ?? refFromTitle(input.title, takenRefs(state.seasons), "season"),
      title: input.title,
      priority: input.priority ?? 0,
      archived_at: null,
      segments: segmentsOf(null, input.segments ?? [], () => ids.take("season_segments"), errors),
    };
    errors.push(...seasonProblems(season), ...seasonClashes(season, state.seasons));
    checkRefs(state.seasons, season, errors);
    failIfInvalid(errors);
    const plan = emptyPlan();
    planEntity(plan, state, "season", null, season);
    return { plan, result: seasonView(season) };
  });
  return result;
}

export async function updateSeason(store: Store, actor: Actor, businessId: number, id: number, body: SeasonPatch, now: Date): Promise<AdminSeason> {
  const db = store.DB;
  const input = parseInput(SeasonPatch, body);
  const { result } = await commit(store, actor, businessId, now, (state) => {
    const before = findSeason(state, id);
    const errors: FieldError[] = [];
    const ids = new IdAllocator(state.maxIds);
    const season: Season = structuredClone(before);
    if (input.ref !== undefined) season.ref = input.ref;
    if (input.title !== undefined) season.title = input.title;
    if (input.priority !== undefined) season.priority = input.priority;
    if (input.segments !== undefined) season.segments = segmentsOf(before, input.segments, () => ids.take("season_segments"), errors);
    if (input.archived === true && before.archived_at === null) season.archived_at = isoDateTime(now);
    if (input.archived === false) season.archived_at = null;
    errors.push(...seasonProblems(season), ...seasonClashes(season, state.seasons));
    checkRefs(state.seasons, season, errors);
    failIfInvalid(errors);
    const plan = emptyPlan();
    planEntity(plan, state, "season", before, season);
    return { plan, result: seasonView(season) };
  });
  return result;
}
