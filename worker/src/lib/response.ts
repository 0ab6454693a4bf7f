/** A copy of the response with extra headers (responses from fetch or the cache are immutable). */
export function withHeaders(res: Response, headers: Record<string, string>): Response {
  const out = new Response(res.body, res);
  for (const [name, value] of Object.entries(headers)) {
    if (name === "Vary" && out.headers.get("Vary")) out.headers.set("Vary", `${out.headers.get("Vary")}, ${value}`);
    else out.headers.set(name, value);
  }
  return out;
}
