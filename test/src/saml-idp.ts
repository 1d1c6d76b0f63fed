// A SAML identity provider made inside the tests: an RSA key, a self-signed certificate, responses signed with xml-crypto.
import { generateKeyPair, randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { inflateRawSync } from "node:zlib";
import forge from "node-forge";
import { SignedXml } from "xml-crypto";

export interface TestIdp {
  entityID: string;
  ssoURL: string;
  /** PEM of the certificate the SP pins. */
  certificate: string;
  privateKey: string;
}

/** A fresh RSA key, made off the event loop (the system under test may share this process). */
export async function rsaKey(): Promise<{ privateKey: string; publicKey: string }> {
  return promisify(generateKeyPair)("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
}

export async function makeIdp(name = `idp-${randomUUID()}`): Promise<TestIdp> {
  const { privateKey: privatePem, publicKey } = await rsaKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey);
  cert.serialNumber = "01";
  cert.validity.notBefore = new Date(Date.now() - 24 * 3600_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 24 * 3600_000);
  const subject = [{ name: "commonName", value: name }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.sign(forge.pki.privateKeyFromPem(privatePem), forge.md.sha256.create());
  return { entityID: `https://${name}.idp.test/metadata`, ssoURL: `https://${name}.idp.test/sso`, certificate: forge.pki.certificateToPem(cert), privateKey: privatePem };
}

/** The AuthnRequest a start URL redirected to: its ID and the query it came with. */
export function readAuthnRequest(location: string): { id: string; destination: string; acsURL: string; issuer: string } {
  const url = new URL(location);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get("SAMLRequest") ?? "", "base64")).toString("utf8");
  const attr = (name: string) => new RegExp(`${name}="([^"]+)"`).exec(xml)?.[1] ?? "";
  const issuer = /<saml:Issuer[^>]*>([^<]+)</.exec(xml)?.[1] ?? "";
  return { id: attr("ID"), destination: attr("Destination"), acsURL: attr("AssertionConsumerServiceURL"), issuer };
}

export interface ResponseOptions {
  inResponseTo: string;
  /** Our ACS URL: Destination and Recipient unless overridden. */
  acsURL: string;
  /** Our entity id: the Audience unless overridden. */
  audience: string;
  email: string;
  displayName?: string;
  destination?: string;
  recipient?: string;
  issuer?: string;
  /** Seconds from now; negative for an assertion in the past. */
  issuedAt?: number;
  validFor?: number;
  signResponse?: boolean;
  signAssertion?: boolean;
  /** Sign with this key instead of the IdP's own. */
  signingKey?: string;
}

const iso = (offsetSeconds: number) => new Date(Date.now() + offsetSeconds * 1000).toISOString();

function assertionXml(idp: TestIdp, o: ResponseOptions, id: string): string {
  const issued = o.issuedAt ?? 0;
  const until = issued + (o.validFor ?? 300);
  return (
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${iso(issued)}">` +
    `<saml:Issuer>${o.issuer ?? idp.entityID}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${o.email}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData InResponseTo="${o.inResponseTo}" NotOnOrAfter="${iso(until)}" Recipient="${o.recipient ?? o.acsURL}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${iso(issued - 5)}" NotOnOrAfter="${iso(until)}"><saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(issued)}" SessionIndex="_s${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>${o.displayName ?? "SSO Person"}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
    `</saml:Assertion>`
  );
}

function sign(xml: string, key: string, cert: string, element: "Assertion" | "Response"): string {
  const sig = new SignedXml({
    privateKey: key,
    publicCert: cert,
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
  });
  const target = element === "Response" ? "/*[local-name(.)='Response']" : "//*[local-name(.)='Assertion']";
  sig.addReference({
    xpath: target,
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"],
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
  });
  sig.computeSignature(xml, { location: { reference: `${target}/*[local-name(.)='Issuer']`, action: "after" } });
  return sig.getSignedXml();
}

/** A signed SAML Response as XML. */
export function responseXml(idp: TestIdp, o: ResponseOptions): string {
  const key = o.signingKey ?? idp.privateKey;
  let assertion = assertionXml(idp, o, `_a${randomUUID()}`);
  if (o.signAssertion ?? true) assertion = sign(assertion, key, idp.certificate, "Assertion");
  let response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomUUID()}" Version="2.0" IssueInstant="${iso(o.issuedAt ?? 0)}" Destination="${o.destination ?? o.acsURL}" InResponseTo="${o.inResponseTo}">` +
    `<saml:Issuer>${o.issuer ?? idp.entityID}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    assertion +
    `</samlp:Response>`;
  if (o.signResponse ?? true) response = sign(response, key, idp.certificate, "Response");
  return response;
}

/** A second, separately signed assertion slipped into an already signed response. */
export function injectAssertion(signedResponse: string, idp: TestIdp, o: ResponseOptions): string {
  const extra = sign(assertionXml(idp, o, `_a${randomUUID()}`), o.signingKey ?? idp.privateKey, idp.certificate, "Assertion");
  return signedResponse.replace("</samlp:Response>", `${extra}</samlp:Response>`);
}

export const encode = (xml: string) => Buffer.from(xml, "utf8").toString("base64");
