// Provider set-up: certificates, readiness and our per-provider URLs.
import { generateKeyPairSync } from "node:crypto";
import { isConfigured, normalizeCertificate, serviceUrls } from "./saml-config";
import type { SamlProviderDoc } from "./models";

describe("saml config", () => {
  test("each provider has its own entity id, ACS, start and metadata URLs", () => {
    expect(serviceUrls("https://docs.example.com", "p1")).toEqual({
      entityID: "https://docs.example.com/sso/saml/p1",
      acsURL: "https://docs.example.com/sso/saml/p1/acs",
      startURL: "https://docs.example.com/sso/saml/p1/start",
      metadataURL: "https://docs.example.com/sso/saml/p1/metadata",
    });
  });

  test.each(["", "not a certificate", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----"])("%j is not a certificate", (input) => {
    expect(normalizeCertificate(input)).toBeNull();
  });

  test("a public key is not a certificate either", () => {
    const { publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    expect(normalizeCertificate(publicKey.export({ type: "spki", format: "pem" }).toString())).toBeNull();
  });

  test("a provider is configured once entity id, certificate and sign-in URL are set", () => {
    const base: SamlProviderDoc = { id: "p", organizationId: "o", label: "L", defaultRole: "read", createdAt: "", updatedAt: "" };
    expect(isConfigured(base)).toBe(false);
    expect(isConfigured({ ...base, entityID: "e", certificate: "c", ssoURL: "https://idp" })).toBe(true);
  });
});
