// A generated sweep of bad input over every operation: wrong types, missing and over-long fields, unknown
// enum values, query operators, huge numbers, malformed JSON and another organization's ids. Every answer
// must be the expected 4xx in the one error body, and the store must be unchanged afterwards.
import { expectErrorBody, type ApiResponse } from "@docshelf/testkit";
import { OPERATIONS, fillPath, pathParams, type Operation } from "./sweep-operations";
import { inputsOf, type Field } from "./sweep-spec";
import { diffStore, settledStore, specsProcessing, type Volatile } from "./store-snapshot";
import { buildWorld, inParallel, stopWorld, type Resources, type World } from "./sweep-world";

/** One generated request. `label` names where the bad value is and what it is: `body.title:overlong`. */
interface Case {
  op: Operation;
  label: string;
  kind: Kind;
  /** Path parameters replaced, by name. */
  path?: Partial<Record<keyof Resources, string>>;
  /** Raw query string, without `?`. */
  query?: string;
  /** The body: a value sent as JSON, or `raw` text sent as it is (with `contentType`, default JSON). */
  body?: unknown;
  raw?: string;
  contentType?: string;
}

type Kind =
  | "path-operator"
  | "path-other-org"
  | "path-overlong"
  | "path-number"
  | "path-other-org-tail"
  | "url-huge"
  | "query-wrong-type"
  | "query-operator"
  | "query-enum"
  | "query-overlong"
  | "query-long-text"
  | "query-number"
  | "query-unknown-operator"
  | "body-malformed"
  | "body-not-object"
  | "body-not-json"
  | "body-missing"
  | "body-wrong-type"
  | "body-operator"
  | "body-enum"
  | "body-overlong"
  | "body-number"
  | "body-huge"
  | "body-other-org";

const MUTATING = (op: Operation) => op.method !== "GET";

/**
 * What a path parameter holding an id that names nothing (or nothing the caller can see) answers. A
 * DELETE of its own target is 204, as the interface's Errors section says; another organization's
 * resource there may also be 404 (the caller may not see it). A DELETE whose container below the
 * first parameter is missing may answer either: the target is missing for the caller both ways. An
 * over-long or number-like value may also be refused as no id at all (400).
 */
function pathExpectation(op: Operation, name: keyof Resources, kind: Kind): number[] {
  const params = pathParams(op);
  const target = op.method === "DELETE" && op.template.endsWith("}") && params.at(-1) === name;
  const inside = op.method === "DELETE" && params.indexOf(name) > 0;
  const noId = kind === "path-overlong" || kind === "path-number" ? [400] : [];
  if (target && kind !== "path-other-org" && kind !== "path-other-org-tail") return [204, ...noId];
  if (target || inside) return [204, 404, ...noId];
  return [404, ...noId];
}

/**
 * The expected statuses of each kind of case, before the exceptions below: every bad value of a field
 * the operation reads is 400; a body over JSON_BODY_LIMIT_BYTES is 413.
 */
function expectedByKind(c: Case): number[] {
  const params = Object.keys(c.path ?? {}) as Array<keyof Resources>;
  switch (c.kind) {
    case "path-operator":
    case "path-other-org":
    case "path-overlong":
    case "path-number":
      return pathExpectation(c.op, params[0], c.kind);
    case "path-other-org-tail":
      return pathExpectation(c.op, params.at(-1)!, c.kind);
    case "query-long-text":
      // GitBook's document gives these no maximum: a limit of ours (400) or none (200), never a 5xx.
      return [200, 400];
    case "query-unknown-operator":
      // GitBook ignores a query parameter it does not know; a mutating request is sent to a missing target.
      if (!MUTATING(c.op)) return [200];
      return pathExpectation(c.op, params[0], "path-operator");
    case "body-huge":
      return [413];
    case "url-huge":
      // Refused by the HTTP parser before the gateway sees it, answered in the error body all the same.
      return [431];
    case "body-other-org":
      // A reference to another organization's resource names nothing here: refused as a bad field or as not found.
      return c.label.startsWith("body.organization:") ? [403, 404] : [400, 404];
    default:
      return [400];
  }
}

const IGNORED = "a GitBook field the interface does not have: dropped, as unknown fields are, so the request succeeds";

/**
 * Cases whose answer differs from their kind's, each with the reason. `op` and `label` are matched
 * against the operation id and the case label. Accepted writes run after the store comparison.
 */
const EXCEPTIONS: Array<{ op: RegExp; label: RegExp; status: number[]; why: string }> = [
  { op: /^postComment(InSpace|InChangeRequest)$/, label: /^body\.tableCell(\.|:)/, status: [200], why: IGNORED },
  { op: /^updateSpaceById$/, label: /^body\.(language|mergeRules):/, status: [200], why: IGNORED },
  { op: /^applyTemplateToSpace$/, label: /^body\.params:operator$/, status: [201], why: IGNORED },
  { op: /^addSectionGroupToSite$/, label: /^body\.parent:/, status: [201], why: IGNORED },
  { op: /^createTranslation$/, label: /^body\.(source|language|instructions)(\.\w+)?:(?!huge)/, status: [201], why: `${IGNORED} (the interface's translation settings take a title)` },
  { op: /^updateTranslation$/, label: /^body\.instructions(\.|:)/, status: [200], why: `${IGNORED} (the interface's translation settings take a title)` },
  { op: /^updateChangeRequestById$/, label: /^body\.description(\.|:)/, status: [200], why: "the change-requests README: `description` is accepted and ignored" },
  { op: /^(import|exportTo)GitRepository$/, label: /^body\.timestamp:wrong-type$/, status: [204], why: "git-sync takes `timestamp` as a date-time or epoch milliseconds (a number)" },
  { op: /^(import|exportTo)GitRepository$/, label: /^body\.gitInfo:operator$/, status: [204], why: "`{$gt}` is a gitInfo object with no member GitBook requires; its unknown member is dropped" },
  { op: /^applyTemplateToSpace$/, label: /^query\.id:unknown-operator$/, status: [400], why: "query parameters are merged over the body, so `id[$ne]` replaces the template id and is refused" },
  { op: /^getOrganizationsForEmailDomain$/, label: /^path\.emailDomain:(operator|overlong|number=.*)$/, status: [400], why: "the email domain is checked to be a domain name" },
  { op: /^getOrganizationsForEmailDomain$/, label: /^path\.emailDomain:other-organization$/, status: [200], why: "a lookup by domain, not an id: it lists the organizations of that domain the caller belongs to, here none" },
  { op: /^listSSOProviderLoginsInOrganization$/, label: /^path\.organizationId:other-organization$/, status: [200], why: "the identity README: any caller may list an existing organization's sign-in URLs" },
  { op: /OpenAPISpec|OpenAPISpecVersion/, label: /^path\.specSlug:(operator|overlong|number=-1|number=NaN)$/, status: [400], why: "the slug is checked against GitBook's OpenAPISpecSlug pattern and length" },
  { op: /^createOrUpdateOpenAPISpecBySlug$/, label: /^(path\.specSlug:(number=1e308|number=2\^53\+1|other-organization)|query\.id:unknown-operator)$/, status: [200], why: "PUT creates the spec when the slug names none" },
];

/** Fields the interface gives that GitBook's document does not list (or lists as a JSON document). */
const INTERFACE_FIELDS: Record<string, Field[]> = {
  postCommentInSpace: [{ name: "body.markdown", type: "string", required: true }],
  postCommentInChangeRequest: [{ name: "body.markdown", type: "string", required: true }],
  postCommentReplyInSpace: [{ name: "body.markdown", type: "string", required: true }],
  postCommentReplyInChangeRequest: [{ name: "body.markdown", type: "string", required: true }],
  updateCommentInSpace: [{ name: "body.markdown", type: "string", required: false }],
  updateCommentInChangeRequest: [{ name: "body.markdown", type: "string", required: false }],
  updateCommentReplyInSpace: [{ name: "body.markdown", type: "string", required: false }],
  createOpenAPISpec: [{ name: "source.text", type: "string", required: true }],
  createOrUpdateOpenAPISpecBySlug: [{ name: "source.text", type: "string", required: true }],
  createTranslation: [{ name: "title", type: "string", maxLength: 100, required: true }],
  updateTranslation: [{ name: "title", type: "string", maxLength: 100, required: true }],
};

/** Body fields that refer to another resource, and that resource in the other organization. */
const REFERENCES: Record<string, (b: Resources) => unknown> = {
  parent: (b) => b.collectionId,
  organization: (b) => b.organizationId,
  spaceId: (b) => b.spaceId,
  sectionId: (b) => b.siteSectionId,
  defaultSiteSpace: (b) => b.siteSpaceId,
  defaultSiteSection: (b) => b.siteSectionId,
  defaultTeam: (b) => b.teamId,
  page: (b) => b.pageId,
  members: (b) => [b.userId],
  spaces: (b) => [b.spaceId],
  sections: (b) => [b.siteSectionId],
};

/** The deprecated moves' `position`, pointing before a sibling of the other organization. */
const POSITIONS: Record<string, (b: Resources) => unknown> = {
  moveSpace: (b) => ({ before: { type: "space", space: b.spaceId } }),
  moveSiteSection: (b) => ({ before: { type: "site-section", siteSection: b.siteSectionId } }),
  moveSiteSpace: (b) => ({ before: { type: "site-space", siteSpace: b.siteSpaceId } }),
};

/**
 * Fields excluded from the store comparison: none. Rate-limit counters and Idempotency-Key records live
 * in the gateway's memory, not in the store; `lastSeenAt` only moves on a ping, which the sweep sends
 * with bad paths only; background work (spec processing, Git jobs) settles before the first snapshot.
 */
const VOLATILE: Volatile = {};

const MISSING = "sweepmissing00000000";
const OPERATOR_IN_PATH = "{$gt}";
const LONG = "x".repeat(8 * 1024);
const HUGE = "x".repeat(1024 * 1024 + 1);
const NUMBERS: Array<[string, unknown]> = [
  ["1e308", 1e308],
  ["-1", -1],
  ["2^53+1", 2 ** 53 + 1],
  ["NaN", "NaN"],
];

/** The value a field of `type` is not. */
function wrongType(type: Field["type"]): unknown {
  if (type === "string") return 12345;
  if (type === "number" || type === "integer") return "not-a-number";
  if (type === "boolean") return "not-a-boolean";
  if (type === "array") return "not-an-array";
  if (type === "object") return "not-an-object";
  return undefined;
}

function setIn(body: Record<string, unknown>, name: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const [head, tail] = name.split(".");
  if (tail === undefined) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
    return copy;
  }
  const inner = { ...((copy[head] as Record<string, unknown> | undefined) ?? {}) };
  if (value === undefined) delete inner[tail];
  else inner[tail] = value;
  copy[head] = inner;
  return copy;
}

function bodyCases(op: Operation, w: World): Case[] {
  if (!MUTATING(op) || op.method === "DELETE") return [];
  const spec = inputsOf(op.id).body;
  const fields = [...(spec ?? []), ...(INTERFACE_FIELDS[op.id] ?? [])];
  const valid = op.body?.(w, 0) ?? {};
  const cases: Case[] = [
    { op, label: "body:malformed", kind: "body-malformed", raw: '{"title": "x",' },
    // An array would be merged into the parameters as nothing, the request taken for one without a body.
    { op, label: "body:array", kind: "body-not-object", raw: '[{"$gt": ""}]' },
    { op, label: "body:string", kind: "body-not-object", raw: '"text"' },
    // The valid body as text/plain: the parser skips it, and the request must not go on as if it had none.
    { op, label: "body:text-plain", kind: "body-not-json", raw: JSON.stringify(valid), contentType: "text/plain" },
  ];
  const each = (field: Field) => {
    const at = (label: string, kind: Kind, value: unknown) => cases.push({ op, label: `body.${field.name}:${label}`, kind, body: setIn(valid, field.name, value) });
    const parent = field.name.split(".")[0];
    // A field inside an object is only sent inside the valid body's own object.
    if (field.name.includes(".") && typeof valid[parent] !== "object") return;
    if (field.required) at("missing", "body-missing", undefined);
    const wrong = wrongType(field.type);
    if (wrong !== undefined) at("wrong-type", "body-wrong-type", wrong);
    at("operator", "body-operator", { $gt: "" });
    if (field.enum) at("enum", "body-enum", "not-a-known-value");
    if (field.maxLength !== undefined && field.type === "string") at("overlong", "body-overlong", "x".repeat(field.maxLength + 1));
    if (field.type === "number" || field.type === "integer") for (const [label, value] of NUMBERS) at(`number=${label}`, "body-number", value);
    for (const inner of field.fields ?? []) each(inner);
  };
  fields.forEach(each);
  for (const field of fields) {
    const other = REFERENCES[field.name];
    if (other) cases.push({ op, label: `body.${field.name}:other-organization`, kind: "body-other-org", body: setIn(valid, field.name, other(w.b.ids)) });
  }
  const position = POSITIONS[op.id];
  if (position) cases.push({ op, label: "body.position:other-organization", kind: "body-other-org", body: { ...valid, position: position(w.b.ids) } });
  const firstString = fields.find((f) => f.type === "string" && !f.name.includes("."));
  if (firstString) cases.push({ op, label: `body.${firstString.name}:huge`, kind: "body-huge", body: setIn(valid, firstString.name, HUGE) });
  return cases;
}

function queryCases(op: Operation, w: World): Case[] {
  const valid = new URLSearchParams(op.query?.(w) ?? {});
  const withParam = (name: string, raw: string) => {
    const params = new URLSearchParams(valid);
    params.delete(name);
    const rest = params.toString();
    return rest ? `${rest}&${raw}` : raw;
  };
  const cases: Case[] = [];
  for (const field of inputsOf(op.id).query) {
    const at = (label: string, kind: Kind, raw: string) => cases.push({ op, label: `query.${field.name}:${label}`, kind, query: withParam(field.name, raw) });
    const name = encodeURIComponent(field.name);
    at("operator", "query-operator", `${name}%5B%24ne%5D=x`);
    at("object", "query-wrong-type", `${name}%5Bx%5D%5By%5D=1`);
    if (field.type === "string" && !field.enum) at("array", "query-wrong-type", `${name}=a&${name}=b`);
    if (field.type === "boolean") at("wrong-type", "query-wrong-type", `${name}=not-a-boolean`);
    if (field.type === "number" || field.type === "integer") {
      at("wrong-type", "query-wrong-type", `${name}=abc`);
      for (const [label] of NUMBERS) at(`number=${label}`, "query-number", `${name}=${encodeURIComponent(label === "2^53+1" ? String(2 ** 53 + 1) : label)}`);
    }
    if (field.enum) at("enum", "query-enum", `${name}=not-a-known-value`);
    if (field.maxLength !== undefined) at("overlong", "query-overlong", `${name}=${"x".repeat(field.maxLength + 1)}`);
    else if (field.type === "string" && !field.enum) at("long", "query-long-text", `${name}=${LONG}`);
  }
  const first = inputsOf(op.id).query[0]?.name ?? "q";
  cases.push({ op, label: `query.${first}:huge`, kind: "url-huge", query: withParam(first, `${encodeURIComponent(first)}=${HUGE}`) });
  // An unknown parameter carrying an operator: ignored, never a query operator.
  const lastParam = pathParams(op).at(-1);
  cases.push({
    op,
    label: "query.id:unknown-operator",
    kind: "query-unknown-operator",
    query: withParam("id", "id%5B%24ne%5D=x"),
    ...(MUTATING(op) && lastParam ? { path: { [lastParam]: MISSING } } : {}),
    ...(op.body ? { body: op.body(w, 0) } : {}),
  });
  return cases;
}

function pathCases(op: Operation, w: World): Case[] {
  const cases: Case[] = [];
  const body = op.body?.(w, 0);
  for (const name of pathParams(op)) {
    const at = (label: string, kind: Kind, value: string) => cases.push({ op, label: `path.${name}:${label}`, kind, path: { [name]: value }, ...(body ? { body } : {}) });
    at("operator", "path-operator", OPERATOR_IN_PATH);
    at("other-organization", "path-other-org", w.b.ids[op.alias?.[name] ?? name]);
    at("overlong", "path-overlong", LONG);
    for (const [label] of NUMBERS) at(`number=${label}`, "path-number", label === "2^53+1" ? String(2 ** 53 + 1) : label);
  }
  // The caller's own container (organization or space) with every resource below it from the other organization.
  const [first, ...rest] = pathParams(op);
  if (first) cases.push({ op, label: `path.${first}:huge`, kind: "url-huge", path: { [first]: HUGE }, ...(body ? { body } : {}) });
  if (first && rest.length) {
    const path = Object.fromEntries(rest.map((name) => [name, w.b.ids[op.alias?.[name] ?? name]]));
    cases.push({ op, label: `path.${rest.join(",")}:other-organization`, kind: "path-other-org-tail", path, ...(body ? { body } : {}) });
  }
  return cases;
}

function expected(c: Case): number[] {
  const exception = EXCEPTIONS.find((e) => e.op.test(c.op.id) && e.label.test(c.label));
  return exception ? exception.status : expectedByKind(c);
}

async function send(w: World, c: Case, ids: Resources = w.a.ids): Promise<ApiResponse> {
  const path = fillPath(c.op, ids, c.path) + (c.query ? `?${c.query}` : c.op.query ? `?${new URLSearchParams(c.op.query(w))}` : "");
  const body = c.raw ?? (c.body !== undefined ? c.body : c.op.body && c.op.method !== "GET" ? c.op.body(w, 0) : undefined);
  return w.a.admin.api.request(c.op.method, path, body, c.contentType ? { "content-type": c.contentType } : {});
}

describe("bad input to every operation, in one process", () => {
  let w: World;
  beforeAll(async () => {
    w = await buildWorld();
  }, 120_000);
  afterAll(async () => {
    await stopWorld(w);
  });

  test("every bad request answers its expected 4xx in the error body, never a 5xx, and changes nothing in the store", async () => {
    const cases = OPERATIONS.flatMap((op) => [...pathCases(op, w), ...queryCases(op, w), ...bodyCases(op, w)]);
    // Accepted cases of mutating operations write: they run after the store is compared, on fresh targets.
    const writes = (c: Case) => MUTATING(c.op) && c.op.method !== "DELETE" && expected(c).some((s) => s < 300);
    const first = cases.filter((c) => !writes(c));
    const later = cases.filter(writes);
    const outcomes = new Map<number, number>();
    const problems: string[] = [];
    const check = (c: Case, res: ApiResponse) => {
      outcomes.set(res.status, (outcomes.get(res.status) ?? 0) + 1);
      const want = expected(c);
      const shown = JSON.stringify(res.body)?.slice(0, 200);
      if (!want.includes(res.status)) problems.push(`${c.op.id} ${c.label}: expected ${want.join("|")}, got ${res.status} ${shown}`);
      if (res.status >= 400) {
        try {
          expectErrorBody(res.status, res.body);
        } catch (err) {
          problems.push(`${c.op.id} ${c.label}: ${(err as Error).message.slice(0, 300)}`);
        }
      }
    };
    const before = await settledStore(w.sys.dataDir, VOLATILE, 300, 60_000, specsProcessing);
    // The comparison means something only if the snapshot holds every service's collections.
    const services = new Set(Object.keys(before).map((name) => name.split("/")[0]));
    expect([...services].sort()).toEqual(["app", "change-requests", "comments", "content", "git-sync", "identity", "openapi", "orgs", "sites"]);
    await inParallel(first, 4, async (c) => check(c, await send(w, c)));
    const after = await settledStore(w.sys.dataDir, VOLATILE);
    const changed = diffStore(before, after);
    for (const c of later) {
      const ids = c.op.fresh ? { ...w.a.ids, ...(await c.op.fresh(w)) } : w.a.ids;
      check(c, await send(w, c, ids));
    }
    console.log(
      `bad-input sweep: ${cases.length} requests over ${OPERATIONS.length} operations (${later.length} accepted writes after the store comparison); by status: ${JSON.stringify(Object.fromEntries([...outcomes].sort(([a], [b]) => a - b)))}`,
    );
    expect(problems).toEqual([]);
    expect(changed).toEqual([]);
  }, 300_000);
});
