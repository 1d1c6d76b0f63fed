// Which account a SAML sign-in opens: never one the IdP merely names by email.
import { decideAccount } from "./saml-accounts";

const ada = { id: "u-ada", email: "ada@example.com" };

describe("decideAccount", () => {
  test("an email no account has creates one", () => {
    expect(decideAccount({ email: "new@example.com" })).toEqual({ kind: "create" });
  });

  test("an account linked to the provider signs in", () => {
    expect(decideAccount({ email: ada.email, existing: ada, linkedUserId: ada.id })).toEqual({ kind: "signIn", userId: ada.id, link: false });
  });

  test("an existing account that was never linked is refused, whoever the IdP says it is", () => {
    expect(decideAccount({ email: ada.email, existing: ada })).toMatchObject({ kind: "refuse", reason: expect.stringContaining("not linked") });
  });

  test("the owner's link ticket links the account when the IdP vouches for the same email", () => {
    expect(decideAccount({ email: ada.email, existing: ada, linkingUser: ada })).toEqual({ kind: "signIn", userId: ada.id, link: true });
    expect(decideAccount({ email: ada.email, existing: ada, linkingUser: ada, linkedUserId: ada.id })).toEqual({ kind: "signIn", userId: ada.id, link: false });
  });

  test("a link ticket does not link an account to another email", () => {
    expect(decideAccount({ email: "boss@example.com", existing: { id: "u-boss", email: "boss@example.com" }, linkingUser: ada })).toMatchObject({ kind: "refuse" });
  });
});
