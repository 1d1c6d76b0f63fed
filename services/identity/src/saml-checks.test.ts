// The checks node-saml leaves to us, on responses whose signatures were already verified.
import { checkResponse, SamlRefusal } from "./saml-checks";

const ACS = "https://docs.example.com/sso/saml/p1/acs";
const IDP = "https://idp.example.com/metadata";

interface Parts {
  destination?: string | null;
  responseIssuer?: string;
  assertionIssuer?: string;
  recipient?: string | null;
  nameId?: string;
  attributes?: Record<string, string>;
}

function xml(p: Parts = {}) {
  const destination = p.destination === null ? "" : ` Destination="${p.destination ?? ACS}"`;
  const recipient = p.recipient === null ? "" : ` Recipient="${p.recipient ?? ACS}"`;
  const attributes = Object.entries(p.attributes ?? { displayName: "Ada Lovelace" })
    .map(([name, value]) => `<saml:Attribute Name="${name}"><saml:AttributeValue>${value}</saml:AttributeValue></saml:Attribute>`)
    .join("");
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a1"><saml:Issuer>${p.assertionIssuer ?? IDP}</saml:Issuer>` +
    `<saml:Subject><saml:NameID>${p.nameId ?? "Ada@Example.com"}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData${recipient} InResponseTo="_req"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:AttributeStatement>${attributes}</saml:AttributeStatement></saml:Assertion>`;
  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r1"${destination}>` +
    `<saml:Issuer>${p.responseIssuer ?? IDP}</saml:Issuer>${assertion}</samlp:Response>`;
  return { response, assertion };
}

const check = (p: Parts = {}) => {
  const { response, assertion } = xml(p);
  return checkResponse(response, assertion, { acsURL: ACS, idpEntityID: IDP });
};

describe("checkResponse", () => {
  test("a response to our ACS from our IdP answers the ids, the lower-cased email and the display name", () => {
    expect(check()).toEqual({ responseId: "_r1", assertionId: "_a1", email: "ada@example.com", displayName: "Ada Lovelace" });
  });

  test.each<[string, Parts, RegExp]>([
    ["another Destination", { destination: "https://evil.example.com/acs" }, /Destination/],
    ["no Destination", { destination: null }, /Destination/],
    ["another response Issuer", { responseIssuer: "https://evil.example.com" }, /identity provider/],
    ["another assertion Issuer", { assertionIssuer: "https://evil.example.com" }, /identity provider/],
    ["another Recipient", { recipient: "https://evil.example.com/acs" }, /Recipient/],
    ["no Recipient", { recipient: null }, /Recipient/],
    ["no email anywhere", { nameId: "opaque-id-123", attributes: {} }, /email/],
  ])("a response with %s is refused", (_what, parts, reason) => {
    expect(() => check(parts)).toThrow(SamlRefusal);
    expect(() => check(parts)).toThrow(reason);
  });

  test("an opaque NameID falls back to the email attribute, and the display name to the email's local part", () => {
    expect(check({ nameId: "opaque-id-123", attributes: { mail: "grace@example.com" } })).toMatchObject({ email: "grace@example.com", displayName: "grace" });
  });

  test("XML that is not well-formed is refused", () => {
    expect(() => checkResponse("<samlp:Response", "<x/>", { acsURL: ACS, idpEntityID: IDP })).toThrow(SamlRefusal);
  });
});
