import { Hono } from "hono";
import type { AppEnv } from "../env";

/**
 * GET /docs: a reference page rendered in the browser from /openapi.json. Self-contained (no
 * CDN is reachable offline and a vendored renderer would be a megabyte of assets): operations
 * grouped by tag with their parameters, request and response schemas, auth, and the problem
 * codes. Every string from the document is escaped before it reaches the page.
 */

const STYLE = String.raw`
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --bg: #fff; --panel: #f6f8fa; --line: #d0d7de; --accent: #0a58ca; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9aa5b1; --bg: #0d1117; --panel: #161b22; --line: #30363d; --accent: #58a6ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
.layout { display: grid; grid-template-columns: 18rem 1fr; min-height: 100vh; }
nav { border-right: 1px solid var(--line); padding: 1rem; position: sticky; top: 0; height: 100vh; overflow: auto; background: var(--panel); }
nav h2 { font-size: 0.8rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 1rem 0 .25rem; }
nav a { display: block; text-decoration: none; padding: .1rem 0; color: var(--fg); font-size: .85rem; overflow-wrap: anywhere; }
main { padding: 1.5rem 2rem 4rem; max-width: 72rem; }
.op { border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; margin: 1rem 0 1.5rem; }
.op h3 { margin: 0 0 .25rem; font-size: 1.05rem; overflow-wrap: anywhere; }
.method { display: inline-block; min-width: 4.2rem; text-align: center; border-radius: 4px; padding: 0 .4rem; margin-right: .5rem; color: #fff; font-size: .8rem; font-weight: 700; text-transform: uppercase; }
.get { background: #1f7a3d; } .post { background: #0a58ca; } .put, .patch { background: #9a6700; } .delete { background: #b42318; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; font-size: .9rem; }
th, td { text-align: left; vertical-align: top; border-top: 1px solid var(--line); padding: .3rem .5rem; }
th { color: var(--muted); font-weight: 600; }
.req { color: #b42318; font-weight: 700; }
.muted { color: var(--muted); }
.status { font-weight: 700; }
details { margin: .25rem 0 .25rem .5rem; }
summary { cursor: pointer; }
h4 { margin: 1rem 0 .25rem; font-size: .95rem; }
.desc { white-space: pre-line; }
@media (max-width: 800px) { .layout { display: block; } nav { position: static; height: auto; } main { padding: 1rem; } }
`;

const SCRIPT = String.raw`
(function () {
  var main = document.getElementById('content');
  var nav = document.getElementById('nav');
  var METHODS = ['get', 'post', 'put', 'patch', 'delete'];

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]; });
  }
  // Descriptions may carry inline code in backticks; nothing else is interpreted.
  function text(s) { return esc(s || '').replace(/\x60([^\x60]+)\x60/g, '<code>$1</code>'); }
  function slug(s) { return String(s).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''); }
  function refName(ref) { return ref.split('/').pop(); }

  function load(doc) {
    var schemas = (doc.components && doc.components.schemas) || {};
    function resolve(s) { return s && s.$ref ? schemas[refName(s.$ref)] || {} : s || {}; }

    function typeOf(s) {
      if (!s) return 'any';
      if (s.$ref) { var n = refName(s.$ref); return '<a href="#schema-' + esc(slug(n)) + '">' + esc(n) + '</a>'; }
      if (s.anyOf || s.oneOf) return (s.anyOf || s.oneOf).map(typeOf).join(' | ');
      if (s.allOf) return s.allOf.map(typeOf).join(' & ');
      if (s.const !== undefined) return '<code>' + esc(JSON.stringify(s.const)) + '</code>';
      var t = Array.isArray(s.type) ? s.type.join(' | ') : s.type || (s.properties ? 'object' : 'any');
      if (s.type === 'array' || (Array.isArray(s.type) && s.type[0] === 'array')) t = 'array of ' + typeOf(s.items);
      else t = esc(t);
      if (s.format) t += ' <span class="muted">(' + esc(s.format) + ')</span>';
      return t;
    }

    function constraints(s) {
      var out = [];
      if (s.enum) out.push('one of: ' + s.enum.map(function (v) { return '<code>' + esc(JSON.stringify(v)) + '</code>'; }).join(', '));
      if (s.default !== undefined) out.push('default <code>' + esc(JSON.stringify(s.default)) + '</code>');
      if (s.minimum !== undefined) out.push('min ' + esc(s.minimum));
      if (s.exclusiveMinimum !== undefined) out.push('> ' + esc(s.exclusiveMinimum));
      if (s.maximum !== undefined) out.push('max ' + esc(s.maximum));
      if (s.exclusiveMaximum !== undefined) out.push('< ' + esc(s.exclusiveMaximum));
      if (s.minLength !== undefined) out.push('min length ' + esc(s.minLength));
      if (s.maxLength !== undefined) out.push('max length ' + esc(s.maxLength));
      if (s.minItems !== undefined) out.push('min items ' + esc(s.minItems));
      if (s.maxItems !== undefined) out.push('max items ' + esc(s.maxItems));
      if (s.pattern) out.push('pattern <code>' + esc(s.pattern) + '</code>');
      if (s.example !== undefined) out.push('example <code>' + esc(JSON.stringify(s.example)) + '</code>');
      return out.length ? '<div class="muted">' + out.join('; ') + '</div>' : '';
    }

    // The object (or array of objects) a schema describes, for nesting; null for scalars.
    function nested(s, seen) {
      var r = resolve(s);
      if (s && s.$ref && seen.indexOf(s.$ref) >= 0) return null;
      if (r.type === 'array' || (Array.isArray(r.type) && r.type[0] === 'array')) return nested(r.items, seen);
      if (r.properties || r.additionalProperties || r.anyOf || r.oneOf || r.allOf) return r;
      return null;
    }

    function schemaBlock(s, seen, depth) {
      if (!s) return '';
      var r = resolve(s);
      if (s.$ref) seen = seen.concat([s.$ref]);
      if (depth > 8) return '<div class="muted">…</div>';
      var variants = r.anyOf || r.oneOf || r.allOf;
      if (variants && !r.properties) {
        return variants.map(function (v, i) {
          var inner = nested(v, seen);
          return '<details' + (depth < 2 ? ' open' : '') + '><summary>' + (r.allOf ? 'all of ' : 'variant ' + (i + 1) + ': ') + typeOf(v) + '</summary>' +
            (inner ? schemaBlock(v.$ref ? v : inner, seen, depth + 1) : constraints(resolve(v))) + '</details>';
        }).join('');
      }
      var props = r.properties || {};
      var required = r.required || [];
      var rows = Object.keys(props).map(function (name) {
        var p = props[name];
        var rp = resolve(p);
        var inner = nested(p, seen);
        var sub = inner ? '<details' + (depth < 1 ? ' open' : '') + '><summary>fields</summary>' + schemaBlock(inner === rp && p.$ref ? p : inner, seen, depth + 1) + '</details>' : '';
        return '<tr><td class="mono">' + esc(name) + (required.indexOf(name) >= 0 ? ' <span class="req" title="required">*</span>' : '') + '</td><td>' + typeOf(p) +
          '</td><td>' + (rp.description || p.description ? '<div class="desc">' + text(p.description || rp.description) + '</div>' : '') + constraints(rp) + sub + '</td></tr>';
      }).join('');
      var extra = r.additionalProperties && typeof r.additionalProperties === 'object'
        ? '<div class="muted">Any other key: ' + typeOf(r.additionalProperties) + '</div>' : '';
      if (!rows) return '<div>' + typeOf(s) + constraints(r) + '</div>' + extra;
      return '<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>' + rows + '</tbody></table>' + extra;
    }

    function content(c) {
      if (!c) return '';
      return Object.keys(c).map(function (type) {
        var s = c[type].schema;
        return '<div class="muted mono">' + esc(type) + '</div>' + (s ? schemaBlock(s, [], 0) : '');
      }).join('');
    }

    function params(list) {
      if (!list || !list.length) return '';
      var rows = list.map(function (p) {
        var s = p.schema || {};
        return '<tr><td class="mono">' + esc(p.name) + (p.required ? ' <span class="req" title="required">*</span>' : '') + '</td><td>' + esc(p.in) + '</td><td>' + typeOf(s) +
          '</td><td>' + (p.description ? '<div class="desc">' + text(p.description) + '</div>' : '') + constraints(resolve(s)) + '</td></tr>';
      }).join('');
      return '<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>' + rows + '</tbody></table>';
    }

    function security(op) {
      var sec = op.security || doc.security || [];
      if (!sec.length || sec.every(function (r) { return Object.keys(r).length === 0; })) return '<p class="muted">No authentication.</p>';
      return '<p class="muted">Authentication: ' + sec.map(function (r) { return Object.keys(r).map(esc).join(' + '); }).join(' or ') + '.</p>';
    }

    // Operations by tag, in the document's order.
    var groups = {};
    var order = [];
    Object.keys(doc.paths || {}).forEach(function (path) {
      var item = doc.paths[path];
      METHODS.forEach(function (m) {
        var op = item[m];
        if (!op) return;
        var tag = (op.tags && op.tags[0]) || 'Other';
        if (!groups[tag]) { groups[tag] = []; order.push(tag); }
        groups[tag].push({ path: path, method: m, op: op, shared: item.parameters || [] });
      });
    });
    var tagDocs = {};
    (doc.tags || []).forEach(function (t) { tagDocs[t.name] = t; });

    var html = [];
    var menu = ['<a href="#top"><strong>' + esc(doc.info.title) + '</strong></a>', '<a href="#auth">Authentication</a>', '<a href="#errors">Errors</a>'];
    html.push('<h1 id="top">' + esc(doc.info.title) + ' <span class="muted">' + esc(doc.info.version) + '</span></h1>');
    if (doc.info.description) html.push('<p class="desc">' + text(doc.info.description) + '</p>');
    html.push('<p>The machine-readable description: <a href="/openapi.json">/openapi.json</a> (OpenAPI ' + esc(doc.openapi) + ').</p>');
    if (doc.servers && doc.servers.length) html.push('<p>Server: ' + doc.servers.map(function (s) { return '<code>' + esc(s.url) + '</code>'; }).join(', ') + '</p>');

    html.push('<h2 id="auth">Authentication</h2>');
    var schemes = (doc.components && doc.components.securitySchemes) || {};
    var names = Object.keys(schemes);
    if (!names.length) html.push('<p>None declared.</p>');
    names.forEach(function (n) {
      var s = schemes[n];
      html.push('<p><strong class="mono">' + esc(n) + '</strong>: ' + esc(s.type) + (s.scheme ? ' ' + esc(s.scheme) : '') + (s.bearerFormat ? ' (' + esc(s.bearerFormat) + ')' : '') +
        (s.description ? '<br><span class="desc">' + text(s.description) + '</span>' : '') + '</p>');
    });

    html.push('<h2 id="errors">Errors</h2><p>Every error is <code>application/problem+json</code> (RFC 9457) with a stable <code>code</code>; validation errors list each invalid field in <code>errors</code>.</p>');
    var problem = schemas.Problem;
    if (problem) {
      html.push(schemaBlock({ $ref: '#/components/schemas/Problem' }, [], 0));
      var codes = problem.properties && problem.properties.code && resolve(problem.properties.code).enum;
      if (codes) html.push('<h4>Codes</h4><p>' + codes.map(function (c) { return '<code id="problem-' + esc(slug(c)) + '">' + esc(c) + '</code>'; }).join(', ') + '</p>');
    }

    order.forEach(function (tag) {
      var id = 'tag-' + slug(tag);
      menu.push('<h2>' + esc(tag) + '</h2>');
      html.push('<h2 id="' + esc(id) + '">' + esc(tag) + '</h2>');
      if (tagDocs[tag] && tagDocs[tag].description) html.push('<p class="desc">' + text(tagDocs[tag].description) + '</p>');
      groups[tag].forEach(function (e) {
        var op = e.op;
        var opId = 'op-' + slug(op.operationId || e.method + '-' + e.path);
        menu.push('<a href="#' + esc(opId) + '"><span class="mono">' + esc(e.method.toUpperCase()) + '</span> ' + esc(e.path) + '</a>');
        var out = ['<section class="op" id="' + esc(opId) + '">'];
        out.push('<h3><span class="method ' + esc(e.method) + '">' + esc(e.method) + '</span><span class="mono">' + esc(e.path) + '</span></h3>');
        if (op.summary) out.push('<div><strong>' + text(op.summary) + '</strong></div>');
        if (op.description) out.push('<p class="desc">' + text(op.description) + '</p>');
        if (op.deprecated) out.push('<p><strong>Deprecated.</strong></p>');
        out.push(security(op));
        out.push(params(e.shared.concat(op.parameters || [])));
        if (op.requestBody) {
          out.push('<h4>Request body' + (op.requestBody.required ? ' <span class="req">*</span>' : '') + '</h4>');
          if (op.requestBody.description) out.push('<p class="desc">' + text(op.requestBody.description) + '</p>');
          out.push(content(op.requestBody.content));
        }
        out.push('<h4>Responses</h4>');
        Object.keys(op.responses || {}).forEach(function (status) {
          var r = op.responses[status];
          var isProblem = r.content && r.content['application/problem+json'];
          out.push('<details' + (status[0] === '2' ? ' open' : '') + '><summary><span class="status">' + esc(status) + '</span> ' + text(r.description) + '</summary>' +
            (isProblem ? '<p class="muted">problem+json: see <a href="#errors">Errors</a>.</p>' : content(r.content)) + '</details>');
        });
        out.push('</section>');
        html.push(out.join(''));
      });
    });

    var schemaNames = Object.keys(schemas);
    if (schemaNames.length) {
      menu.push('<h2>Schemas</h2>');
      html.push('<h2 id="schemas">Schemas</h2>');
      schemaNames.forEach(function (n) {
        menu.push('<a href="#schema-' + esc(slug(n)) + '">' + esc(n) + '</a>');
        html.push('<section class="op" id="schema-' + esc(slug(n)) + '"><h3 class="mono">' + esc(n) + '</h3>' +
          (schemas[n].description ? '<p class="desc">' + text(schemas[n].description) + '</p>' : '') + schemaBlock({ $ref: '#/components/schemas/' + n }, [], 1) + '</section>');
      });
    }

    nav.innerHTML = menu.join('');
    main.innerHTML = html.join('');
    document.title = doc.info.title + ' reference';
    if (location.hash) { var target = document.getElementById(location.hash.slice(1)); if (target) target.scrollIntoView(); }
  }

  fetch('/openapi.json', { headers: { Accept: 'application/json' } })
    .then(function (res) { if (!res.ok) throw new Error('GET /openapi.json answered ' + res.status); return res.json(); })
    .then(load)
    .catch(function (err) { main.innerHTML = '<p role="alert">Could not load the API description: ' + esc(err.message) + '</p>'; });
})();
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<div class="layout">
<nav id="nav" aria-label="Operations"></nav>
<main id="content"><p>Loading the API description from <a href="/openapi.json">/openapi.json</a> …</p></main>
</div>
<script>${SCRIPT}</script>
</body>
</html>`;

/** GET /docs (a plain Hono route: the page is not an API operation and stays out of /openapi.json). */
export function docsRoutes() {
  const app = new Hono<AppEnv>();
  app.get("/docs", (c) =>
    c.html(PAGE, 200, {
      "Cache-Control": "no-cache",
      "Content-Security-Policy": "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
      "X-Content-Type-Options": "nosniff",
    }),
  );
  return app;
}
