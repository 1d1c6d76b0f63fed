// deploy/grafana/docshelf.json against a running instance: every series a panel queries, and every label it
// groups or filters by, is one this instance's Prometheus endpoint (METRICS_PORT) really exports. A renamed
// metric, or a dashboard typo, fails here instead of leaving an empty panel on the operator's screen.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, startEmbedded, type RunningSystem } from "@docshelf/testkit";

interface Target {
  refId: string;
  expr: string;
  datasource: { type: string; uid: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { type: string; uid: string };
  targets?: Target[];
}
interface Dashboard {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; type: string; query: string }> };
}

const dashboard = JSON.parse(readFileSync(join(__dirname, "..", "..", "deploy", "grafana", "docshelf.json"), "utf8")) as Dashboard;
const queries = dashboard.panels.filter((p) => p.type !== "row");

/** Metric names an expression reads (docshelf_*, moleculer_*, process_*, os_*), histogram suffixes kept. */
const seriesOf = (expr: string): string[] => [...new Set(expr.match(/\b(?:docshelf|moleculer|process|os)_[a-z0-9_]+/g) ?? [])];
/** Labels an expression groups by or matches on; `le` belongs to histograms, `instance` and `job` to Prometheus' scrape. */
function labelsOf(expr: string): string[] {
  const grouped = [...expr.matchAll(/\bby \(([^)]*)\)/g)].flatMap((m) => m[1].split(",").map((l) => l.trim()));
  const matched = [...expr.matchAll(/\{([^}]*)\}/g)].flatMap((m) => [...m[1].matchAll(/([a-z_]+)\s*(?:=~|!~|!=|=)/g)].map((l) => l[1]));
  return [...new Set([...grouped, ...matched])].filter((l) => l && !["le", "instance", "job"].includes(l));
}

describe("the Grafana dashboard in deploy/grafana", () => {
  test("is a dashboard of queries on a chosen Prometheus data source, panels with unique ids inside the 24-column grid", () => {
    expect(dashboard.uid).toBe("docshelf-overview");
    expect(dashboard.templating.list).toContainEqual(expect.objectContaining({ name: "datasource", type: "datasource", query: "prometheus" }));
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of dashboard.panels) {
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
    }
    expect(queries.length).toBeGreaterThanOrEqual(10);
    for (const panel of queries) {
      expect({ panel: panel.title, datasource: panel.datasource }).toEqual({ panel: panel.title, datasource: { type: "prometheus", uid: "${datasource}" } });
      expect(panel.targets?.length).toBeGreaterThan(0);
      for (const target of panel.targets ?? []) expect(seriesOf(target.expr).length).toBeGreaterThan(0);
    }
    // What the dashboard is for: HTTP rate, errors and latency by route, queue depths, store sizes, the edge cache.
    const all = queries.flatMap((p) => p.targets ?? []).map((t) => t.expr).join("\n");
    for (const series of ["docshelf_http_requests_total", "docshelf_http_request_duration_seconds_bucket", "docshelf_job_queue_depth", "docshelf_store_size_bytes", "docshelf_site_edge_answers_total"]) {
      expect(all).toContain(series);
    }
  });

  describe("against a running instance's /metrics", () => {
    let system: RunningSystem;
    let metricsUrl: string;

    beforeAll(async () => {
      const port = await freePort();
      metricsUrl = `http://127.0.0.1:${port}/metrics`;
      system = await startEmbedded({ METRICS_PORT: String(port) });
    }, 60_000);

    afterAll(async () => {
      await system?.stop();
    });

    test("every series and label the panels query is exported", async () => {
      // Traffic of every kind the panels count: API answers, a refused token, a site page.
      expect((await system.admin.get("/v1/user")).status).toBe(200);
      expect((await fetch(`${system.url}/v1/user`)).status).toBe(401);
      expect((await fetch(`${system.url}/sites/no-such-site/page`)).status).toBe(404);

      const wanted = queries.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, series: seriesOf(t.expr), labels: labelsOf(t.expr) })));
      const missing = (text: string): string[] => {
        const lines = text.split("\n").filter((l) => l && !l.startsWith("#"));
        const problems: string[] = [];
        for (const { panel, series, labels } of wanted) {
          for (const name of series) {
            const samples = lines.filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
            if (samples.length === 0) problems.push(`${panel}: ${name}`);
            for (const label of labels) {
              if (samples.length > 0 && !samples.some((l) => l.includes(`${label}="`))) problems.push(`${panel}: ${name} has no label ${label}`);
            }
          }
        }
        return [...new Set(problems)];
      };
      // The gauges are read once at start; give them a moment.
      let problems: string[] = ["not scraped yet"];
      const deadline = Date.now() + 20_000;
      while (problems.length > 0 && Date.now() < deadline) {
        const res = await fetch(metricsUrl);
        expect(res.status).toBe(200);
        problems = missing(await res.text());
        if (problems.length > 0) await new Promise((r) => setTimeout(r, 250));
      }
      expect(problems).toEqual([]);
    }, 40_000);

    test("queue depths and store sizes have the values the store holds", async () => {
      const text = await (await fetch(metricsUrl)).text();
      // Moleculer puts its own labels (namespace, nodeID) first.
      const value = (name: string, labels: string[]): number | undefined => {
        const line = text.split("\n").find((l) => l.startsWith(`${name}{`) && labels.every((label) => l.includes(label)));
        return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
      };
      for (const queue of ["git-sync", "openapi"]) {
        for (const state of ["pending", "running"]) {
          expect({ queue, state, value: value("docshelf_job_queue_depth", [`queue="${queue}"`, `state="${state}"`]) }).toEqual({ queue, state, value: 0 });
        }
      }
      // identity has the admin's user and token: its SQLite database is on disk, so its size is not 0.
      expect(value("docshelf_store_size_bytes", ['service="identity"'])).toBeGreaterThan(4096);
    });
  });
});
