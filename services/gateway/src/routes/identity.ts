// Routes served by the identity service.
export const identityRoutes: Record<string, string> = {
  "GET /user": "identity.me",
  "GET /users/:userId": "identity.getUser",
  "PATCH /users/:userId": "identity.updateUser",
  "POST /users": "identity.createUser",
  "POST /users/:userId/tokens": "identity.createToken",
  "DELETE /users/:userId/tokens/:tokenId": "identity.revokeToken",

  "GET /orgs/:organizationId/saml": "identity.listSamlProviders",
  "POST /orgs/:organizationId/saml": "identity.createSamlProvider",
  "GET /orgs/:organizationId/saml/:samlProviderId": "identity.getSamlProvider",
  "PATCH /orgs/:organizationId/saml/:samlProviderId": "identity.updateSamlProvider",
  "DELETE /orgs/:organizationId/saml/:samlProviderId": "identity.deleteSamlProvider",
  "POST /orgs/:organizationId/saml/:samlProviderId/link": "identity.createSamlLink",
  "GET /orgs/:organizationId/sso": "identity.listSsoLogins",
  // Not in GitBook's API: the email domains an organization verifies for SSO (docs/SECURITY.md).
  "GET /orgs/:organizationId/domains": "identity.listSsoDomains",
  "POST /orgs/:organizationId/domains": "identity.createSsoDomain",
  "GET /orgs/:organizationId/domains/:domain": "identity.getSsoDomain",
  "DELETE /orgs/:organizationId/domains/:domain": "identity.deleteSsoDomain",
  "POST /orgs/:organizationId/domains/:domain/verify": "identity.verifySsoDomain",
  "POST /orgs/:organizationId/domains/:domain/approve": "identity.approveSsoDomain",
  // Not in GitBook's API (docshelf's own, under /v1/docshelf): one's password, browser sessions and API tokens.
  "PUT /docshelf/user/password": "identity.setPassword",
  "GET /docshelf/user/sessions": "identity.listSessions",
  "DELETE /docshelf/user/sessions/:sessionId": "identity.revokeSession",
  "GET /docshelf/user/tokens": "identity.listTokens",
  "GET /docshelf/orgs/:organizationId/oidc": "identity.listOidcProviders",
  "POST /docshelf/orgs/:organizationId/oidc": "identity.createOidcProvider",
  "GET /docshelf/orgs/:organizationId/oidc/:oidcProviderId": "identity.getOidcProvider",
  "DELETE /docshelf/orgs/:organizationId/oidc/:oidcProviderId": "identity.deleteOidcProvider",
  "POST /docshelf/orgs/:organizationId/oidc/:oidcProviderId/link": "identity.createOidcLink",
};

/**
 * The browser-facing sign-in routes, outside /v1: no bearer token (the browser has none yet), form
 * bodies (the IdP posts `SAMLResponse` form-urlencoded; identity's own pages post their forms), and only
 * these actions. The gateway passes each call the browser's cookie header, client address and whether it
 * came over https as `meta.browser` (identity's forms are CSRF-checked against a cookie of its own).
 */
export const ssoBrowserRoutes = {
  name: "sso",
  path: "/sso",
  mappingPolicy: "restrict",
  autoAliases: false,
  authentication: false,
  mergeParams: true,
  aliases: {
    "GET saml/:samlProviderId/start": "identity.samlStart",
    "POST saml/:samlProviderId/acs": "identity.samlAcs",
    "GET saml/:samlProviderId/metadata": "identity.samlMetadata",
    "GET oidc/:oidcProviderId/start": "identity.oidcStart",
    "GET oidc/:oidcProviderId/callback": "identity.oidcCallback",
    "GET sign-in": "identity.signInPage",
    "POST sign-in": "identity.signInPassword",
    "POST sign-in/link": "identity.signInLinkRequest",
    "GET sign-in/magic": "identity.signInLinkPage",
    "POST sign-in/magic": "identity.signInLinkRedeem",
    "GET sign-in/forgot": "identity.forgotPage",
    "POST sign-in/forgot": "identity.forgotRequest",
    "GET sign-in/reset": "identity.resetPage",
    "POST sign-in/reset": "identity.resetSubmit",
    "GET invite": "identity.invitePage",
    "POST invite": "identity.inviteSubmit",
    "GET setup": "identity.setupPage",
    "POST setup": "identity.setupSubmit",
  },
  bodyParsers: { json: false, urlencoded: { extended: false, limit: "256kb", parameterLimit: 10 } },
} as const;
