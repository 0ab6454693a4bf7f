import type { Handler } from "hono";
import type { AppEnv } from "./db/request-env";
import { notFound, onError } from "./lib/problem";
import { createRouter } from "./routes/router";
import { httpsOnly } from "./middleware/https";
import { requestContext } from "./middleware/request-context";

/**
 * The app with what every route shares: request id and log line, the HTTPS rule, the error
 * handler and the not-found answer. Routes are mounted by index.ts. A `first` route is matched
 * before all of them: a request it answers is handed whole to another app (index.ts, the public
 * API's first request), which runs them itself.
 */
export function createApp(first?: { path: string; handler: Handler<AppEnv> }) {
  const app = createRouter();
  if (first) app.all(first.path, first.handler);
  // The back office's pages post HTML forms; every other door takes JSON only.
  app.use("*", requestContext({ formPaths: /^\/admin\// }));
  app.use("*", httpsOnly());

  app.notFound(notFound);
  app.onError(onError);
  return app;
}
