// Checks node-saml leaves to its caller (Destination, Recipient, Issuer) and what a response says about the user.
import { DOMParser } from "@xmldom/xmldom";
import * as xpath from "xpath";

export interface Expected {
  /** Our assertion consumer URL: the response's Destination and the confirmation's Recipient. */
  acsURL: string;
  /** The IdP's entity id: the Issuer of the response and of its assertion. */
  idpEntityID: string;
}

export interface ResponseFacts {
  responseId: string;
  assertionId: string;
  email: string;
  displayName: string;
}

export class SamlRefusal extends Error {}

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+$/;
const DISPLAY_NAME_ATTRIBUTES = ["displayName", "name", "http://schemas.microsoft.com/identity/claims/displayname", "urn:oid:2.16.840.1.113730.3.1.241"];
const EMAIL_ATTRIBUTES = ["email", "mail", "emailAddress", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress", "urn:oid:0.9.2342.19200300.100.1.3"];

function parse(xml: string): Document {
  let failed = false;
  const fail = () => {
    failed = true;
  };
  const doc = new DOMParser({ errorHandler: { warning: fail, error: fail, fatalError: fail } }).parseFromString(xml, "text/xml");
  if (failed || !doc?.documentElement) throw new SamlRefusal("The SAML message is not well-formed XML.");
  return doc as unknown as Document;
}

function strings(expression: string, node: Node): string[] {
  const found = xpath.select(expression, node);
  if (!Array.isArray(found)) return [];
  return found.map((n) => (xpath.isAttribute(n) ? n.value : (n.textContent ?? "")).trim());
}

function only(expression: string, node: Node, what: string): string {
  const values = strings(expression, node);
  if (values.length !== 1 || !values[0]) throw new SamlRefusal(`The SAML response must carry exactly one ${what}.`);
  return values[0];
}

const el = (name: string) => `*[local-name()='${name}']`;

/**
 * `responseXml` is the whole response, `assertionXml` the assertion whose signature node-saml verified.
 * Both signatures are required and checked before this runs; this adds the checks of the values.
 */
export function checkResponse(responseXml: string, assertionXml: string, expected: Expected): ResponseFacts {
  const response = parse(responseXml).documentElement as unknown as Node;
  const assertion = parse(assertionXml).documentElement as unknown as Node;

  const destination = only(`/${el("Response")}/@Destination`, response, "Destination");
  if (destination !== expected.acsURL) throw new SamlRefusal("The SAML response was sent to another Destination.");
  const responseIssuer = only(`/${el("Response")}/${el("Issuer")}`, response, "response Issuer");
  const assertionIssuer = only(`/${el("Assertion")}/${el("Issuer")}`, assertion, "assertion Issuer");
  if (responseIssuer !== expected.idpEntityID || assertionIssuer !== expected.idpEntityID) {
    throw new SamlRefusal("The SAML response was issued by another identity provider.");
  }
  const confirmations = `/${el("Assertion")}/${el("Subject")}/${el("SubjectConfirmation")}[@Method='urn:oasis:names:tc:SAML:2.0:cm:bearer']/${el("SubjectConfirmationData")}`;
  const recipients = strings(`${confirmations}/@Recipient`, assertion);
  if (recipients.length === 0 || recipients.some((r) => r !== expected.acsURL)) {
    throw new SamlRefusal("The SAML assertion is meant for another Recipient.");
  }

  const responseId = only(`/${el("Response")}/@ID`, response, "response ID");
  const assertionId = only(`/${el("Assertion")}/@ID`, assertion, "assertion ID");
  const attribute = (names: string[]) => {
    for (const name of names) {
      const value = strings(`/${el("Assertion")}/${el("AttributeStatement")}/${el("Attribute")}[@Name='${name}']/${el("AttributeValue")}`, assertion)[0];
      if (value) return value;
    }
    return undefined;
  };
  const nameId = strings(`/${el("Assertion")}/${el("Subject")}/${el("NameID")}`, assertion)[0];
  const email = (EMAIL.test(nameId ?? "") ? nameId : attribute(EMAIL_ATTRIBUTES))?.toLowerCase();
  if (!email || !EMAIL.test(email) || email.length > 254) throw new SamlRefusal("The SAML assertion carries no email address (NameID or an email attribute).");
  const displayName = (attribute(DISPLAY_NAME_ATTRIBUTES) ?? email.split("@")[0]).slice(0, 100);
  return { responseId, assertionId, email, displayName };
}
