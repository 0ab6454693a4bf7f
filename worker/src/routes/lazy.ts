import { Hono, type Context, type Env, type Handler } from "hono";
import { executionCtxOf } from "../lib/wait-until";

/**
 * A router whose modules are evaluated on its first request instead of at the isolate's startup
 * (the private API and the back office: the schemas their contracts build are most of the work of
 * a startup; docs/benchmarks.md "What loads lazily"). `load` is a dynamic `import()`: the bundler
 * keeps the modules in the one file but wraps them in a function run when first imported.
 *
 * The router, once built, is kept as a plain value of the process (never the promise of it: two
 * first requests at once each load and build it; the module is evaluated once). Each request
 * reaches it with its own Request, bindings and execution context, and with the variables set
 * before it (request id, clock, shard): they are handed over on the way in, and what the router
 * sets (the tenant the log line names) is handed back, so the request context's middleware sees
 * what it saw when the router was mounted with `route()`. An error the router's own handler does
 * not answer is thrown on, to the app's handler; a path the router does not serve gets the app's
 * not-found answer (the app's 404 or 405), as it would mounted with `route()`.
 */
export function lazyRouter<E extends Env>(base: string, load: () => Promise<Hono<never>>): Handler<E> {
  let built: Hono | undefined;
  const outer = new WeakMap<Request, Context<E>>();
  const outerOf = new WeakMap<Context, Context<E>>();

  const build = async () => {
    const router = await load();
    const door = new Hono();
    door.use("*", async (c, next) => {
      const from = outer.get(c.req.raw);
      if (!from) throw new Error(`lazyRouter(${base}): a request that did not come through its handler`);
      outerOf.set(c, from);
      for (const [key, value] of Object.entries(from.var as object)) c.set(key as never, value as never);
      try {
        await next();
      } finally {
        for (const [key, value] of Object.entries(c.var as object)) from.set(key as never, value as never);
      }
    });
    door.route(base, router as unknown as Hono);
    door.notFound((c) => {
      const from = outerOf.get(c);
      if (!from) throw new Error(`lazyRouter(${base}): a request that did not come through its handler`);
      return from.notFound();
    });
    door.onError((err) => {
      throw err;
    });
    return door;
  };

  return async (c) => {
    const door = built ?? (built = await build());
    outer.set(c.req.raw, c);
    return door.fetch(c.req.raw, c.env, executionCtxOf(c));
  };
}
