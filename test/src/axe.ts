// axe-core in a page the browser suites open: its WCAG 2.1 A/AA rules, the serious and critical
// violations only. The engine is evaluated through the DevTools protocol (the pages' CSP admits no
// script tag, and the editor's page only its own script).
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";

/** axe-core's engine, evaluated in the page through the DevTools protocol (the pages' CSP admits no script tag). */
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

/** Every WCAG 2.1 A/AA violation of the page as it is now, whatever its impact. */
export async function wcagViolations(page: Page): Promise<Array<{ id: string; impact?: string | null; help: string; targets: unknown[] }>> {
  await page.evaluate(AXE);
  const { violations, passes } = (await page.evaluate(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) => ({ violations: r.violations, passes: r.passes.length }))",
  )) as { violations: AxeViolation[]; passes: number };
  expect(passes).toBeGreaterThan(5);
  return violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target) }));
}

/** Serious and critical WCAG 2 A/AA violations of the page as it is now. */
export async function seriousViolations(page: Page): Promise<Array<{ id: string; impact?: string | null; help: string; targets: unknown[] }>> {
  await page.evaluate(AXE);
  const { violations, passes } = (await page.evaluate(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) => ({ violations: r.violations, passes: r.passes.length }))",
  )) as { violations: AxeViolation[]; passes: number };
  // The engine ran and checked something (an empty list from a check that never ran proves nothing).
  expect(passes).toBeGreaterThan(5);
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target) }));
}
