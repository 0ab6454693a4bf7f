/** @jsxImportSource hono/jsx */
/**
 * The page around every screen: the bare page of the doors (sign-in, invitation, errors before a
 * session) and the signed-in layout (skip link, the navigation of the table of areas filtered by
 * role, who is signed in, sign-out, the page's heading and message).
 */
import type { Child, FC, PropsWithChildren } from "hono/jsx";
import { may, type Role } from "../../../domain/staff";
import { ASSET_CSS, ASSET_JS } from "./assets";
import { base, Csrf, stringsOf, type AdminContext, type Strings } from "./kit";

/** A page without the signed-in navigation (sign-in, invitation, errors before a session). */
export const Bare: FC<PropsWithChildren<{ t: Strings; title: string }>> = ({ t, title, children }) => (
  <html lang={t.lang}>
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="color-scheme" content="light dark" />
      <meta name="referrer" content="no-referrer" />
      <title>{`${title} · ${t.appName}`}</title>
      <link rel="icon" href="data:," />
      <link rel="stylesheet" href={ASSET_CSS} />
    </head>
    <body class="bare">
      <main id="main" class="narrow">
        <h1>{title}</h1>
        {children}
      </main>
    </body>
  </html>
);

/** The signed-in layout: skip link, navigation by role, who is signed in, sign-out, the page. */
export const Layout: FC<PropsWithChildren<{ c: AdminContext; title: string; current?: keyof Strings["nav"]; flash?: Child }>> = ({ c, title, current, flash, children }) => {
  const t = stringsOf(c);
  const s = c.get("staff");
  const root = base(c);
  const message = flash;
  return (
    <html lang={t.lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="referrer" content="no-referrer" />
        <title>{`${title} · ${s.title}`}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href={ASSET_CSS} />
        <script type="module" src={ASSET_JS}></script>
      </head>
      <body>
        <a class="skip" href="#main">
          {t.skipToContent}
        </a>
        <header class="top">
          <a class="brand" href={`${root}/today`}>
            {s.title}
          </a>
          <nav aria-label={t.nav.label}>
            <ul>
              {c.get("nav").filter((n) => may(s.role as Role, n.permission)).map((n) => (
                <li>
                  <a href={`${root}${n.path}`} aria-current={current === n.key ? "page" : undefined}>
                    {t.nav[n.key]}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div class="me">
            <a href={`${root}/account`} aria-current={current === "account" ? "page" : undefined}>
              <span class="visually-hidden">{t.signedInAs} </span>
              {s.email} <span class="role">({t.roles[s.role as Role]})</span>
            </a>
            <form method="post" action={`${root}/sign-out`}>
              <Csrf c={c} />
              <button type="submit" class="link">
                {t.signOut}
              </button>
            </form>
          </div>
        </header>
        <main id="main" tabindex={-1}>
          <h1>{title}</h1>
          {message ? (
            <p class="flash" role="status">
              {message}
            </p>
          ) : null}
          {children}
        </main>
      </body>
    </html>
  );
};
