// Sign-in timing bench (issue 39): does the time of an answer tell whether an email has an account? Against
// the embedded system, the same number of password sign-ins with a wrong password for emails that have an
// account and for emails that do not, interleaved, and likewise sign-in link and reset requests. Reports the
// medians and their ratio (known / unknown), measured in the same run. Each request comes as another client
// (X-Forwarded-For from a trusted loopback proxy) and each email is used once, so no limit or lockout answers.
// Prints a markdown table and, unless BENCH_WRITE=0, writes it into BENCHMARKS.md between the
// `signin-timing` markers inside the notes.
//
//   npm run build && node bench/dist/signin-timing.js      (or: npm run bench:signin -w @docshelf/bench)
//
// Env (optional, bounded): BENCH_SIGNIN_RUNS (pairs per kind, 40), BENCH_WRITE (0: do not touch BENCHMARKS.md).
import { mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, http, startChild, waitUntil } from "./procs";
import { now, pct, r1 } from "./large-space";
import { embeddedServerEnv, writeMarkedSection } from "./page-bench";
import { bounded, MAIN, START_DEADLINE_MS } from "./systems";

const RUNS = bounded("BENCH_SIGNIN_RUNS", 40, 5, 500);
const WRITE = process.env.BENCH_WRITE !== "0";
const PASSWORD = "the bench's password";

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "docshelf-bench-signin-"));
  const adminToken = `dsk_${randomBytes(24).toString("base64url")}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = startChild("real (all services)", [MAIN], embeddedServerEnv({ dataDir, adminToken, port, label: "signin" }, {
    LOGLEVEL: "error",
    TRUSTED_PROXIES: "127.0.0.1",
  }));
  let client = 0;
  try {
    await waitUntil("/ready", async () => (await http("GET", `${base}/ready`)).status === 200, START_DEADLINE_MS, [proc]);
    const admin = { Authorization: `Bearer ${adminToken}` };
    // Accounts with a password, one per sign-in (a second wrong password would start towards a lockout).
    const known: string[] = [];
    for (let i = 0; i < RUNS * 3; i++) {
      const email = `bench-${i}-${randomBytes(3).toString("hex")}@example.com`;
      const user = await http("POST", `${base}/v1/users`, admin, { email, displayName: `Bench ${i}` });
      const id = (JSON.parse(user.body.toString()) as { id: string }).id;
      const token = (JSON.parse((await http("POST", `${base}/v1/users/${id}/tokens`, admin, {})).body.toString()) as { token: string }).token;
      const set = await http("PUT", `${base}/v1/docshelf/user/password`, { Authorization: `Bearer ${token}` }, { password: PASSWORD });
      if (set.status !== 204) throw new Error(`setting a password answered ${set.status}`);
      known.push(email);
    }
    const app = randomBytes(32).toString("hex");
    /** One form post as a fresh client: the form page (cookie, CSRF token), then the timed post. */
    async function timedPost(path: string, fields: Record<string, string>): Promise<{ ms: number; status: number; body: string }> {
      const forwarded = { "x-forwarded-for": `198.18.${(++client >> 8) & 255}.${client & 255}` };
      const form = await fetch(`${base}/sso/sign-in?app=${app}&return=/app`, { headers: forwarded });
      const cookie = form.headers.getSetCookie()[0].split(";")[0];
      const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1];
      const t = now();
      const res = await fetch(`${base}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { ...forwarded, cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ _csrf: csrf, app, return: "/app", ...fields }).toString(),
      });
      const body = await res.text();
      return { ms: now() - t, status: res.status, body };
    }
    const kinds = [
      { name: "password sign-in, wrong password (`POST /sso/sign-in`)", path: "/sso/sign-in", fields: (email: string) => ({ email, password: "not the password at all" }), status: 401 },
      { name: "sign-in link request (`POST /sso/sign-in/link`)", path: "/sso/sign-in/link", fields: (email: string) => ({ email }), status: 200 },
      { name: "reset link request (`POST /sso/sign-in/forgot`)", path: "/sso/sign-in/forgot", fields: (email: string) => ({ email }), status: 200 },
    ];
    const rows: string[] = [];
    for (const [k, kind] of kinds.entries()) {
      const times = { known: [] as number[], unknown: [] as number[] };
      let sameAnswers = true;
      // Warm-up: one of each, not counted.
      await timedPost(kind.path, kind.fields(`warm-${randomBytes(3).toString("hex")}@example.com`));
      for (let i = 0; i < RUNS; i++) {
        // Alternating which goes first, so neither kind always follows the other.
        const knownPost = () => timedPost(kind.path, kind.fields(known[k * RUNS + i]));
        const unknownPost = () => timedPost(kind.path, kind.fields(`nobody-${i}-${randomBytes(3).toString("hex")}@example.com`));
        let a, b;
        if (i % 2 === 0) {
          a = await knownPost();
          b = await unknownPost();
        } else {
          b = await unknownPost();
          a = await knownPost();
        }
        if (a.status !== kind.status || b.status !== kind.status) throw new Error(`${kind.path} answered ${a.status} / ${b.status}`);
        // The password form repeats the email typed and carries this client's CSRF token; everything else must be the same bytes.
        const plain = (body: string) => body.replace(/value="[^"]*@example\.com"/g, "").replace(/name="_csrf" value="[^"]*"/g, "");
        if (plain(a.body) !== plain(b.body)) sameAnswers = false;
        times.known.push(a.ms);
        times.unknown.push(b.ms);
      }
      const [mk, mu] = [pct(times.known, 50), pct(times.unknown, 50)];
      rows.push(`| ${kind.name} | ${r1(mk)} / ${r1(pct(times.known, 90))} ms | ${r1(mu)} / ${r1(pct(times.unknown, 90))} ms | ${(mk / mu).toFixed(2)} | ${sameAnswers ? "yes" : "**no**"} |`);
    }
    const section = [
      "### Sign-in timing: no account enumeration (issue 39)",
      "",
      `Measured ${new Date().toISOString().replace(/\.\d+Z$/, "Z")} with \`node bench/dist/signin-timing.js\`: the embedded system (\`NODE_ENV=test\`, no SMTP:`,
      `links are logged), ${RUNS} requests per kind for emails with an account and ${RUNS} for emails without one, interleaved,`,
      "each as a new client address and each email once (no limit or lockout in play); the time of the form post alone.",
      `Node ${process.version}; the machine is shared (other sessions' processes were running).`,
      "",
      "| request | account exists: p50 / p90 | no account: p50 / p90 | ratio of p50s | same answer |",
      "| --- | ---: | ---: | ---: | --- |",
      ...rows,
    ].join("\n");
    process.stdout.write(`${section}\n`);
    if (WRITE) process.stdout.write(`wrote ${writeMarkedSection("signin-timing", section)}\n`);
  } finally {
    await proc.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
