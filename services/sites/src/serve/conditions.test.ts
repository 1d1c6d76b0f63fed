// The adaptive-content condition evaluator: what it accepts, what it refuses, and that it never runs code.
import { conditionHolds, conditionParses } from "./conditions";

const claims = { beta: true, plan: "pro", seats: 5, internal: false, unsigned: { trial: true }, nested: { team: { id: "t1" } } };

describe("conditionHolds", () => {
  test.each([
    ["visitor.claims.beta === true", true],
    ["visitor.claims.beta !== true", false],
    ["visitor.claims.beta", true],
    ["!visitor.claims.internal", true],
    ["!!visitor.claims.beta", true],
    ["visitor.claims.plan === 'pro'", true],
    ['visitor.claims.plan === "free"', false],
    ["visitor.claims.seats === 5", true],
    ["visitor.claims.seats == 5", true],
    ["visitor.claims.seats != 5", false],
    ["visitor.claims.beta && visitor.claims.plan === 'pro'", true],
    ["visitor.claims.internal || visitor.claims.plan === 'pro'", true],
    ["visitor.claims.internal && visitor.claims.beta", false],
    ["(visitor.claims.internal || visitor.claims.beta) && !(visitor.claims.seats === 3)", true],
    ["visitor.claims.unsigned.trial === true", true],
    ["visitor.claims['plan'] === 'pro'", true],
    ["visitor.claims.nested.team.id === 't1'", true],
    ["visitor.claims.missing === true", false],
    ["visitor.claims.missing.deeper === true", false],
    ["visitor.claims.missing === null", false],
    ["true", true],
    ["false || true", true],
    ["  visitor.claims.beta   ===   true  ", true],
  ])("%s is %s", (condition, expected) => {
    expect(conditionHolds(condition, claims)).toBe(expected);
  });

  test("an absent condition holds; an empty claims object satisfies only negations", () => {
    expect(conditionHolds(undefined, {})).toBe(true);
    expect(conditionHolds("visitor.claims.beta === true", {})).toBe(false);
    expect(conditionHolds("!visitor.claims.beta", {})).toBe(true);
  });

  test.each([
    "",
    "visitor.claims.beta ===",
    "visitor.claims.beta = true",
    "(visitor.claims.beta",
    "visitor.claims.beta)",
    "visitor",
    "visitor.claims",
    "visitor.other.beta === true",
    "process.exit(1)",
    "globalThis.x",
    "constructor.constructor('return 1')()",
    "visitor.claims.beta === true; process.exit(1)",
    "alert(1)",
    "visitor.claims.plan === 'unterminated",
    "visitor.claims['a'",
    "`template`",
    "visitor.claims.beta ? 1 : 0",
    "1 + 1",
    "!".repeat(100) + "true",
    "(".repeat(100) + "true" + ")".repeat(100),
  ])("%j does not parse, so it hides the item", (condition) => {
    expect(conditionParses(condition)).toBe(false);
    expect(conditionHolds(condition, claims)).toBe(false);
  });

  test("prototype members of claims are not reachable", () => {
    expect(conditionHolds("visitor.claims.constructor", claims)).toBe(false);
    expect(conditionHolds("visitor.claims.__proto__", claims)).toBe(false);
    expect(conditionHolds("visitor.claims.plan.length === 3", claims)).toBe(false);
  });

  test("conditions longer than the interface's 1024 characters are false", () => {
    expect(conditionHolds(`${"true || ".repeat(200)}true`, {})).toBe(false);
  });
});
