import { describe, expect, it } from "vitest";
import { fetchWorker } from "./helpers";

// The widget proxy runs the public API's handlers on an inner request: a deep link made there
// must point at the service's public origin, never at the inner request's made-up host.
describe("the widget proxy's deep link", () => {
  const deeplink = async (origin: string) => {
    const res = await fetchWorker(`${origin}/widget/v1/demo/products/101/deeplink?start_date=2027-05-01&duration=7`);
    return { status: res.status, body: (await res.json()) as { url: string } };
  };

  it("answers a link on the origin the visitor called", async () => {
    const res = await deeplink("http://127.0.0.1");
    expect(res.status).toBe(200);
    expect(res.body.url).toBe("http://127.0.0.1/book/demo?product=101&start_date=2027-05-01&duration=7");
  });

  it("answers each public origin its own link, though the answer is kept at the edge", async () => {
    const a = await deeplink("https://book.surfcamp.example");
    const b = await deeplink("https://booking.other.example");
    expect(a.body.url).toBe("https://book.surfcamp.example/book/demo?product=101&start_date=2027-05-01&duration=7");
    expect(b.body.url).toBe("https://booking.other.example/book/demo?product=101&start_date=2027-05-01&duration=7");
    // and again, from the edge cache
    expect((await deeplink("https://book.surfcamp.example")).body.url).toBe(a.body.url);
  });
});
