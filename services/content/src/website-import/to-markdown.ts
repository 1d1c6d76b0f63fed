// HTML to GitHub-flavoured markdown (headings, lists, fenced code, tables, strikethrough, tasks).
import TurndownService from "turndown";
import { gfm } from "@joplin/turndown-plugin-gfm";

const turndown = new TurndownService({
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  bulletListMarker: "-",
  emDelimiter: "_",
  strongDelimiter: "**",
  linkStyle: "inlined",
});
turndown.use(gfm);

/**
 * The gfm plugin reads `table.rows` inside loops over the rows (the column count, each column's alignment),
 * and turndown's DOM (domino) answers every read of `rows` with a new list, made by walking the table's
 * whole subtree: conversion grew with the square of the rows (a 400 KiB table took 8 minutes of CPU). Each
 * table gets its rows once, as an own property, when turndown first looks at it (rule filters are asked
 * before a node's children are converted, and the rule added last is asked first); the tree is not changed
 * after that, so the list stays right. The filter never matches, so no output changes.
 */
turndown.addRule("tableRowsOnce", {
  filter(node) {
    if (node.nodeName === "TABLE" && !Object.prototype.hasOwnProperty.call(node, "rows")) {
      Object.defineProperty(node, "rows", { value: Array.from((node as unknown as { rows: ArrayLike<unknown> }).rows) });
    }
    return false;
  },
  replacement: () => "",
});

export function htmlToMarkdown(html: string): string {
  return turndown.turndown(html).trim();
}
