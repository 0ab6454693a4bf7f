import { describe, expect, it } from "vitest";
import { checkWebhookUrl, ipv6Groups, nonGlobalIpv6 } from "./webhook-urls";

// Runs inside workerd: the URL parser is the one the Worker uses.
const refused = (raw: string) => checkWebhookUrl(raw, false).ok === false;

describe("webhook target URLs, loopback off (as deployed)", () => {
  it.each([
    // disguised loopback names
    "https://localhost/", "https://localhost./", "https://LOCALHOST../", "https://foo.localhost./", "https://localhost%2e/", "https://%6c%6fcalhost/",
    "https://127.0.0.1/", "https://2130706433/", "https://0x7f.1/", "https://127.1/", "https://0177.0.0.1/", "https://127.0.0.1./",
    // IPv6 forms of loopback and private IPv4, and non-global ranges
    "https://[::1]/", "https://[::]/", "https://[::127.0.0.1]/", "https://[::a9fe:a9fe]/", "https://[::ffff:127.0.0.1]/", "https://[::ffff:a9fe:a9fe]/",
    "https://[64:ff9b::a9fe:a9fe]/", "https://[64:ff9b::7f00:1]/", "https://[64:ff9b:1::1]/", "https://[2002:a9fe:a9fe::]/", "https://[2002:7f00:1::1]/",
    "https://[fec0::1]/", "https://[100::1]/", "https://[fc00::1]/", "https://[fd12:3456::1]/", "https://[fe80::1]/", "https://[ff02::1]/",
    "https://[2001:db8::1]/", "https://[2001::1]/", "https://[3fff::1]/",
    // private IPv4
    "https://10.0.0.1/", "https://169.254.169.254/", "https://172.16.0.1/", "https://192.168.1.1/", "https://100.64.0.1/", "https://0.0.0.0/",
    "https://198.18.0.1/", "https://192.0.2.1/", "https://224.0.0.1/", "https://255.255.255.255/",
    // names that stand for addresses
    "https://127.0.0.1.nip.io/", "https://10.0.0.1.nip.io./", "https://app.127.0.0.1.sslip.io/", "https://10-0-0-1.sslip.io/", "https://app-192-168-0-1.example.com/",
    "https://app.7f000001.nip.io/", "https://8.8.8.8.nip.io/", "https://anything.lvh.me/", "https://a9fea9fe.example.com/",
    // local names
    "https://intranet/", "https://printer.local/", "https://api.internal/", "https://x.home.arpa/", "https://site.test/", "https://my.lan./",
    // not https, or with credentials
    "http://hooks.example.com/in", "https://user:pass@hooks.example.com/in", "ftp://hooks.example.com/",
  ])("refuses %s", (raw) => {
    expect(refused(raw)).toBe(true);
  });

  it.each([
    "https://hooks.example.com/in", "https://hooks.example.com./in", "https://8.8.8.8/", "https://1.1.1.1:8443/x", "https://[2606:4700:4700::1111]/",
    "https://[2a00:1450:4001:80b::200e]/", "https://api.nipple-shop.com/", "https://xn--bcher-kva.example/".replace(".example", ".de"),
  ])("accepts %s", (raw) => {
    expect(checkWebhookUrl(raw, false)).toMatchObject({ ok: true });
  });

  it("says why", () => {
    expect(checkWebhookUrl("http://hooks.example.com/", false)).toEqual({ ok: false, message: "must use https" });
    expect(checkWebhookUrl("https://localhost./", false)).toEqual({ ok: false, message: "must not point to a loopback address" });
    expect(checkWebhookUrl("https://[64:ff9b::a9fe:a9fe]/", false)).toEqual({ ok: false, message: expect.stringContaining("non-public address") });
    expect(checkWebhookUrl("https://127.0.0.1.nip.io/", false)).toEqual({ ok: false, message: expect.stringContaining("stands for an address") });
  });
});

describe("loopback on (local development)", () => {
  it("allows http and https on loopback only", () => {
    for (const raw of ["http://127.0.0.1:8859/hook", "http://localhost:3000/", "https://[::1]/", "http://localhost./"]) expect([raw, checkWebhookUrl(raw, true).ok]).toEqual([raw, true]);
    for (const raw of ["http://10.0.0.1/", "https://[fe80::1]/", "http://127.0.0.1.nip.io/"]) expect([raw, checkWebhookUrl(raw, true).ok]).toEqual([raw, false]);
  });
});

describe("IPv6 arithmetic", () => {
  it("expands every textual form", () => {
    expect(ipv6Groups("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups("::ffff:127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(ipv6Groups("2001:db8::8:800:200c:417a")).toEqual([0x2001, 0xdb8, 0, 0, 8, 0x800, 0x200c, 0x417a]);
    expect(ipv6Groups("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const bad of ["1::2::3", "1:2:3", "12345::", "g::1", "1:2:3:4:5:6:7:8:9"]) expect([bad, ipv6Groups(bad)]).toEqual([bad, null]);
  });

  it("global unicast only", () => {
    expect(nonGlobalIpv6(ipv6Groups("2606:4700::1")!)).toBe(false);
    expect(nonGlobalIpv6(ipv6Groups("2001:200::1")!)).toBe(false);
    expect(nonGlobalIpv6(ipv6Groups("2001:1ff::1")!)).toBe(true);
  });
});
