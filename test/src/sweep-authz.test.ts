// A generated authorization sweep: every operation's valid request as organization A's admin, as each
// lower role, as A's guest, as the admin of organization B, without a token and with a malformed one,
// compared with the expected matrix in sweep-authz.expected.ts.
import { ApiClient, expectErrorBody, type ApiResponse } from "@docshelf/testkit";
import { EXPECTED, type Access } from "./sweep-authz.expected";
import { diffStore, settledStore, specsProcessing, type Volatile } from "./store-snapshot";
import { OPERATIONS, fillPath, queryString, type Operation } from "./sweep-operations";
import { CALLER_ROLES, buildWorld, inParallel, stopWorld, type World } from "./sweep-world";

const CALLERS = [...CALLER_ROLES, "guest", "outsider", "anonymous", "malformed"] as const;
type Caller = (typeof CALLERS)[number];

interface Plan {
  op: Operation;
  caller: Caller;
  path: string;
  body: unknown;
  want: number;
}

/** The heartbeat of an import run in progress (the runs left for refused callers to cancel) moves these without a request. */
const VOLATILE: Volatile = { "content/import_runs": ["updatedAt", "discovered"] };

const RANK: Record<string, number> = { admin: 6, create: 5, review: 4, edit: 3, comment: 2, read: 1, guest: 0 };

/** The status `caller` should get for `op`, from its access rule. */
function expectedStatus(op: Operation, access: Access, caller: Caller): number {
  if (caller === "anonymous" || caller === "malformed") return 401;
  if (access.min === "anyone") return op.success;
  if (caller === "outsider") return 404;
  if (caller === "guest") return access.min === "guest" ? op.success : access.guest;
  return RANK[caller] >= RANK[access.min] ? op.success : 403;
}

function clientOf(w: World, caller: Caller): { api: ApiClient; headers: Record<string, string> } {
  if (caller === "guest") return { api: w.guest.api, headers: {} };
  if (caller === "outsider") return { api: w.b.admin.api, headers: {} };
  if (caller === "anonymous") return { api: new ApiClient(w.sys.url), headers: {} };
  if (caller === "malformed") return { api: new ApiClient(w.sys.url), headers: { authorization: "Bearer not a token; drop table" } };
  return { api: w.members[caller].api, headers: {} };
}

describe("who may call every operation, in one process", () => {
  let w: World;
  beforeAll(async () => {
    w = await buildWorld();
  }, 120_000);
  afterAll(async () => {
    await stopWorld(w);
  });

  test("the expected matrix covers every operation, and nothing else", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(OPERATIONS.map((op) => op.id).sort());
  });

  test("every operation answers each caller as the expected matrix says, refusals in the error body and without writing", async () => {
    // Every call with its target made up front, so that refusals can be checked against an unchanged store.
    let n = 0;
    const plans: Plan[] = [];
    for (const op of OPERATIONS) {
      for (const caller of CALLERS) {
        // A mutating operation gets a fresh target per caller, so one caller's success cannot change the next one's answer.
        const ids = op.fresh ? { ...w.a.ids, ...(await op.fresh(w)) } : w.a.ids;
        const body = op.body?.(w, n++) ?? (op.method === "GET" || op.method === "DELETE" ? undefined : {});
        plans.push({ op, caller, path: fillPath(op, ids) + queryString(op.query?.(w)), body, want: expectedStatus(op, EXPECTED[op.id], caller) });
      }
    }
    const differences: string[] = [];
    const outcomes = new Map<number, number>();
    const run = async (plan: Plan) => {
      const { api, headers } = clientOf(w, plan.caller);
      const res: ApiResponse = await api.request(plan.op.method, plan.path, plan.body, headers);
      outcomes.set(res.status, (outcomes.get(res.status) ?? 0) + 1);
      const cell = `${plan.op.id} as ${plan.caller}`;
      if (res.status !== plan.want) differences.push(`${cell}: expected ${plan.want}, got ${res.status} ${JSON.stringify(res.body)?.slice(0, 160) ?? ""}`);
      // A 201 says where what it created is.
      else if (res.status === 201 && !res.headers.get("location")) differences.push(`${cell}: 201 without a Location header`);
      else if (res.status >= 400) {
        try {
          expectErrorBody(res.status, res.body);
        } catch (err) {
          differences.push(`${cell}: ${(err as Error).message.slice(0, 300)}`);
        }
      }
    };
    // Refusals run first, between two snapshots of the store: a refused request writes nothing.
    const refused = plans.filter((p) => p.want >= 400);
    const allowed = plans.filter((p) => p.want < 400);
    // The specs the plans created are processed one organization's at a time (WORKER_ORG_CONCURRENCY): the store is
    // settled once none is waiting, or their processing would count as a refused request's write.
    const before = await settledStore(w.sys.dataDir, VOLATILE, 300, 90_000, specsProcessing);
    await inParallel(refused, 4, run);
    const written = diffStore(before, await settledStore(w.sys.dataDir, VOLATILE));
    await inParallel(allowed, 4, run);
    console.log(
      `authorization sweep: ${plans.length} requests (${OPERATIONS.length} operations × ${CALLERS.length} callers, ${refused.length} refusals first); by status: ${JSON.stringify(Object.fromEntries([...outcomes].sort(([a], [b]) => a - b)))}`,
    );
    expect(differences.sort()).toEqual([]);
    expect(written).toEqual([]);
  }, 300_000);
});
