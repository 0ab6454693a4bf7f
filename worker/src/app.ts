import { notFound, onError } from "./lib/problem";
import { createRouter } from "./routes/router";
import { httpsOnly } from "./middleware/https";
import { requestContext } from "./middleware/request-context";

/**
 * The app with what every route shares: request id and log line, the HTTPS rule, the error
 * handler and the not-found answer. Routes are mounted by index.ts.
 */
export function createApp() {
  const app = createRouter();
  // The back office's pages post HTML forms; every other door takes JSON only.
  app.use("*", requestContext({ formPaths: /^\/admin\// }));
  app.use("*", httpsOnly());

  app.notFound(notFound);
  app.onError(onError);
  return app;
}
