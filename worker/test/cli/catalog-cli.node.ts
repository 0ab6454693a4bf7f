/**
 * The catalog file CLI end to end, as a site owner runs it: a business built through the private
 * API on one server, exported, and rebuilt by `catalog -- apply` on a fresh database, where the
 * public API answers the same; applying twice changes nothing; --dry-run prints the plan and
 * changes nothing; a bad file changes nothing.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { buildSurfCamp, type SurfCamp } from "../../../e2e/surf-camp";
import { WranglerD1 } from "../../scripts/lib/remote-d1";
import { startServer, type RunningServer } from "../../scripts/server";
import { exportCatalog } from "../../src/manage/catalog/file";
import { get, npmRun } from "./helpers";

const SLUG = "atlantic-surf";

interface Side {
  dir: string;
  server: RunningServer;
}

/** A server on a fresh state with the business made by the CLI (its server is ended if that fails). */
async function side(): Promise<Side> {
  const dir = mkdtempSync(join(tmpdir(), "catalog-cli-"));
  const server = await startServer({ persistTo: dir });
  try {
    const created = await npmRun("business", ["create", "--slug", SLUG, "--title", "Atlantic Surf House", "--persist-to", dir]);
    assert.equal(created.code, 0, created.stderr);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return { dir, server };
}

/**
 * A public read of the business: through the widget's door (a server-side request has no Origin),
 * which runs the public API v2's very handlers, so no public key has to be made on each side.
 */
const pub = (s: Side, path: string) => get(`${s.server.url}/widget/v1/${SLUG}${path}`);

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
function saturdayAfter(offset: number): string {
  const d = new Date(`${day(offset)}T00:00:00Z`);
  while (d.getUTCDay() !== 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

describe("catalog CLI: export, apply on a fresh database, idempotency, dry run", () => {
  let a: Side;
  let b: Side | undefined;
  let camp: SurfCamp;
  let file: string;
  const catalog = (args: string[], s: Side) => npmRun("catalog", [...args, "--persist-to", s.dir]);

  before(async () => {
    a = await side();
    const key = await npmRun("keys", ["create", "--business", SLUG, "--scope", "private", "--name", "owner", "--persist-to", a.dir]);
    camp = await buildSurfCamp(a.server.url, key.stdout.trim(), "https://atlantic-surf.example");
    file = join(a.dir, "atlantic.catalog.json");
  });
  after(async () => {
    for (const s of [a, b]) {
      if (!s) continue;
      await s.server.stop();
      rmSync(s.dir, { recursive: true, force: true });
    }
  });

  it("exports the business as one document, and a fresh database it is applied to answers the public API the same", async () => {
    const exported = await catalog(["export", "--business", SLUG, "--out", file], a);
    assert.equal(exported.code, 0, exported.stderr);
    const doc = JSON.parse(readFileSync(file, "utf8"));
    assert.deepEqual(doc.products.map((p: any) => p.ref).sort(), ["board-rental", "private-double", "sunrise-yoga", "surf-lessons", "surf-week", "women-s-dorm"]);
    assert.equal(doc.settings.widget_origins[0], "https://atlantic-surf.example");

    b = await side();
    const applied = await catalog(["apply", "--business", SLUG, "--file", file], b);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /^\+ product "Surf week" \(surf-week, id \d+\) created$/m);
    assert.match(applied.stdout, /^~ settings changed: .*widget_origins/m);
    assert.match(applied.stdout, /^~ inventory of "Surf week"/m);

    const sat = saturdayAfter(14);
    const high = saturdayAfter(150);
    const paths = [
      "/settings",
      "/settings?language=de",
      "/products",
      `/products/${camp.packageId}?language=de`,
      `/products/${camp.yogaId}`,
      "/seasons",
      `/packages/${camp.packageId}?start_date=${sat}&duration=7`,
      `/packages/${camp.packageId}/accommodations?start_date=${sat}&duration=7&males=1&females=0&couples=0`,
      `/packages/${camp.packageId}/accommodations?start_date=${high}&duration=7&males=0&females=1&couples=1`,
      `/products/${camp.packageId}/availabilities?start_date=${day(0)}&end_date=${day(60)}`,
      `/products/${camp.packageId}/availabilities?start_date=${day(190)}&end_date=${day(210)}`,
      `/products/${camp.yogaId}/availabilities?start_date=${day(1)}&end_date=${day(9)}`,
      `/products/${camp.packageId}/prices?start_date=${sat}&pax=2&duration=7`,
      `/products/${camp.packageId}/prices?start_date=${high}&pax=1&duration=7`,
    ];
    for (const path of paths) {
      const left = await pub(a, path);
      const right = await pub(b!, path);
      assert.equal(left.status, 200, `${path}: ${JSON.stringify(left.body).slice(0, 300)}`);
      assert.deepEqual(right.body, left.body, path);
    }
    const blocked = (await pub(b, `/products/${camp.packageId}/availabilities?start_date=${camp.blockedDate}&end_date=${camp.blockedDate}`)).body;
    assert.equal(blocked[camp.blockedDate].blocked, true);
  });

  it("changes nothing when the same file is applied again", async () => {
    const again = await catalog(["apply", "--business", SLUG, "--file", file], b!);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^Nothing to change: business "atlantic-surf" already is as /);
  });

  it("prints the plan of a changed file on --dry-run and changes nothing; applying it changes exactly that", async () => {
    const doc = JSON.parse(readFileSync(file, "utf8"));
    const week = doc.products.find((p: any) => p.ref === "surf-week");
    week.rates = week.rates.map((r: any) => ({ ...r, amount: r.amount + 5 }));
    week.package.items = week.package.items.filter((i: any) => i.product !== "board-rental");
    doc.products = doc.products.filter((p: any) => p.ref !== "board-rental");
    doc.products.push({ ref: "sup-tour", type: "activity", title: "SUP tour", capacity: 6, rates: [{ amount: 40 }] });
    const changed = join(a.dir, "changed.catalog.json");
    writeFileSync(changed, JSON.stringify(doc));
    const price = async () => (await pub(a, `/products/${camp.packageId}/prices?start_date=${saturdayAfter(14)}&pax=1&duration=7`)).body.total_price;
    const was = await price();

    const dry = await catalog(["apply", "--business", SLUG, "--file", changed, "--dry-run"], a);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^~ product "Surf week" \(surf-week, id \d+\) updated$/m);
    assert.match(dry.stdout, /^- product "Board rental" \(board-rental, id \d+\) archived$/m);
    assert.match(dry.stdout, /^\+ product "SUP tour" \(sup-tour, id \d+\) created$/m);
    assert.match(dry.stdout, /^1 created, 1 changed, 1 archived\.$/m);
    assert.match(dry.stdout, /Dry run: nothing was changed\./);
    assert.equal(await price(), was);

    const applied = await catalog(["apply", "--business", SLUG, "--file", changed], a);
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(await price(), was + 35);
    assert.equal((await pub(a, `/products/${camp.boardId}`)).status, 404);
  });

  it("refuses a file with bad references or amounts, naming each, and changes nothing", async () => {
    const doc = JSON.parse(readFileSync(file, "utf8"));
    doc.products.find((p: any) => p.ref === "surf-week").location = "atlantis";
    doc.products.find((p: any) => p.ref === "surf-lessons").rates = [{ amount: 35.555 }];
    const bad = join(a.dir, "bad.catalog.json");
    writeFileSync(bad, JSON.stringify(doc));
    const res = await catalog(["apply", "--business", SLUG, "--file", bad], a);
    assert.equal(res.code, 1);
    assert.match(res.stderr, /products\.\d+\.location: no location "atlantis" in this file/);
    assert.match(res.stderr, /products\.\d+\.rates\.0\.amount: has more decimals than EUR allows/);
  });

  it("reads the rebuilt database through wrangler d1 execute, as --remote does: the very document it was built from", async () => {
    const db = new WranglerD1({ persistTo: b!.dir });
    const id = (await db.prepare("SELECT id FROM businesses WHERE slug = ?").bind(SLUG).first<{ id: number }>())!.id;
    const { file: viaWrangler } = await exportCatalog(db.asD1(), id);
    assert.equal(db.trips, 2); // the business, then the catalog in one round trip
    assert.deepEqual(viaWrangler, JSON.parse(readFileSync(file, "utf8")));
  });
});
