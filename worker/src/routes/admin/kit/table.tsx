/** @jsxImportSource hono/jsx */
/**
 * The back office's table: a keyboard-reachable box that scrolls on its own at narrow widths
 * (a focusable region, named like its table), the table's name, its header row and its rows.
 * Every screen that shows rows uses it, so the accessible markup is written once.
 */
import type { Child, FC, PropsWithChildren } from "hono/jsx";

/**
 * How the table is named: by a text (`label`: also its caption, for screen readers only), by a
 * heading of the page (`labelledBy`: the heading's id), or by its own caption (`caption` with
 * `captionId`; shown unless `hiddenCaption`).
 */
export type TableName = { label: string } | { labelledBy: string } | { caption: Child; captionId: string; hiddenCaption?: boolean };

export type TableProps = TableName & {
  /** The header row's cells (`<tr>` included). */
  head: Child;
  /** An id of a text that explains the table (a legend, a hint). */
  describedBy?: string;
  /** A class of the box besides `table-wrap` (the calendar's, the price grid's). */
  class?: string;
};

export const Table: FC<PropsWithChildren<TableProps>> = (p) => {
  const wrap = p.class ? `table-wrap ${p.class}` : "table-wrap";
  if ("label" in p)
    return (
      <div class={wrap} tabindex={0} role="region" aria-label={p.label}>
        <table aria-describedby={p.describedBy}>
          <caption class="visually-hidden">{p.label}</caption>
          <thead>{p.head}</thead>
          <tbody>{p.children}</tbody>
        </table>
      </div>
    );
  if ("labelledBy" in p)
    return (
      <div class={wrap} tabindex={0} role="region" aria-labelledby={p.labelledBy}>
        <table aria-labelledby={p.labelledBy} aria-describedby={p.describedBy}>
          <thead>{p.head}</thead>
          <tbody>{p.children}</tbody>
        </table>
      </div>
    );
  return (
    <div class={wrap} tabindex={0} role="region" aria-labelledby={p.captionId}>
      <table aria-describedby={p.describedBy}>
        <caption id={p.captionId} class={p.hiddenCaption ? "visually-hidden" : undefined}>
          {p.caption}
        </caption>
        <thead>{p.head}</thead>
        <tbody>{p.children}</tbody>
      </table>
    </div>
  );
};
