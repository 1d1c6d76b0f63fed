// How node-saml is set up for one provider: its URLs, the pinned certificate and the strict options.
import { X509Certificate } from "node:crypto";
import { SAML, ValidateInResponseTo, type CacheProvider } from "@node-saml/node-saml";
import type { SamlProviderDoc } from "./models";

/** Clocks of the IdP and ours may differ this much. */
export const CLOCK_SKEW_MS = 60_000;
/** An AuthnRequest is answered within this time, or not at all. */
export const REQUEST_TTL_MS = 10 * 60_000;
/** Accepted response and assertion IDs are kept this long; older assertions are refused anyway. */
export const CONSUMED_TTL_MS = 24 * 60 * 60_000;
/** An assertion older than this (from its IssueInstant) is refused, whatever its NotOnOrAfter says. */
export const MAX_ASSERTION_AGE_MS = 10 * 60_000;

export interface ServiceUrls {
  /** Our entity id for this provider: the Audience the IdP must name. One per provider. */
  entityID: string;
  acsURL: string;
  startURL: string;
  metadataURL: string;
}

export function serviceUrls(publicUrl: string, providerId: string): ServiceUrls {
  const base = `${publicUrl}/sso/saml/${providerId}`;
  return { entityID: base, acsURL: `${base}/acs`, startURL: `${base}/start`, metadataURL: `${base}/metadata` };
}

/** A provider can be used once the IdP's entity id, certificate and sign-in URL are known. */
export function isConfigured(p: SamlProviderDoc): p is SamlProviderDoc & Required<Pick<SamlProviderDoc, "entityID" | "certificate" | "ssoURL">> {
  return Boolean(p.entityID && p.certificate && p.ssoURL);
}

/** PEM of an X.509 certificate given as PEM or bare base64 DER; null when it is not one. */
export function normalizeCertificate(input: string): string | null {
  const body = input.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return null;
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join("\n")}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
    return pem;
  } catch {
    return null;
  }
}

export function samlFor(provider: SamlProviderDoc & { entityID: string; certificate: string; ssoURL: string }, urls: ServiceUrls, cache: CacheProvider): SAML {
  return new SAML({
    issuer: urls.entityID,
    callbackUrl: urls.acsURL,
    entryPoint: provider.ssoURL,
    idpCert: provider.certificate,
    idpIssuer: provider.entityID,
    audience: urls.entityID,
    wantAuthnResponseSigned: true,
    wantAssertionsSigned: true,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: cache,
    identifierFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
    disableRequestedAuthnContext: true,
    signatureAlgorithm: "sha256",
  });
}
