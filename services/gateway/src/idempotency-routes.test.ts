// Every route that takes an Idempotency-Key is a real POST route of the API.
import { IDEMPOTENT_ROUTES } from "./idempotency";
import { V1_ROUTES } from "./routes";

test("every idempotent route names a POST route the gateway serves", () => {
  const unknown = IDEMPOTENT_ROUTES.filter((route) => !(route in V1_ROUTES) || !route.startsWith("POST "));
  expect(unknown).toEqual([]);
});

test("token creation is not idempotent, so no token is ever kept for a replay", () => {
  expect(IDEMPOTENT_ROUTES).not.toContain("POST /users/:userId/tokens");
});
