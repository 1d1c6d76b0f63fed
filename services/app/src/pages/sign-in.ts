// The sign-in page: an API token pasted once opens a session, or the organization's SAML provider does;
// and the choice of provider when an organization has several.
import { html } from "../html";
import { layout } from "./layout";
import type { Theme } from "../theme";

export function signInPage(options: { csrf: string; returnTo: string; error?: string; ssoError?: string; passwordURL?: string; theme?: Theme }): string {
  return layout(
    "Sign in",
    { csrf: options.csrf, theme: options.theme },
    html`<h1>Sign in</h1>
${options.passwordURL ? html`<p><a id="password-sign-in" href="${options.passwordURL}">Sign in with your email and password, or an emailed link</a></p>` : ""}
<p>Paste one of your API tokens. It is checked once and not kept: the app opens a session in a cookie
instead, which ends when you sign out, after 7 days, or when the token is revoked.</p>
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ""}
<form method="post" action="/app/sign-in">
<input type="hidden" name="_csrf" value="${options.csrf}">
<input type="hidden" name="return" value="${options.returnTo}">
<label for="token">API token</label>
<input type="password" id="token" name="token" autocomplete="off" required>
<p><button type="submit">Sign in</button></p>
</form>
<h2>Sign in with your organization's SSO</h2>
${options.ssoError ? html`<p class="error" role="alert">${options.ssoError}</p>` : ""}
<form method="post" action="/app/sign-in/sso">
<input type="hidden" name="_csrf" value="${options.csrf}">
<input type="hidden" name="return" value="${options.returnTo}">
<label for="organization">Organization id</label>
<input type="text" id="organization" name="organization" autocomplete="organization" required>
<p><button type="submit">Continue with SSO</button></p>
</form>`,
  );
}

/** An organization with several SAML providers: one button each (a form, so the CSRF token goes along). */
export function ssoChoicePage(options: { csrf: string; returnTo: string; organizationId: string; providers: Array<{ id: string; label: string }> }): string {
  return layout(
    "Sign in with SSO",
    { csrf: options.csrf },
    html`<h1>Sign in with SSO</h1>
<p>This organization signs in through several identity providers; pick yours.</p>
${options.providers.map(
  (p) => html`<form method="post" action="/app/sign-in/sso">
<input type="hidden" name="_csrf" value="${options.csrf}">
<input type="hidden" name="return" value="${options.returnTo}">
<input type="hidden" name="organization" value="${options.organizationId}">
<input type="hidden" name="provider" value="${p.id}">
<p><button type="submit">${p.label}</button></p>
</form>`,
)}`,
  );
}
