// The sign-in page: an API token pasted once opens a session.
import { html } from "../html";
import { layout } from "./layout";

export function signInPage(options: { csrf: string; returnTo: string; error?: string }): string {
  return layout(
    "Sign in",
    { csrf: options.csrf },
    html`<h1>Sign in</h1>
<p>Paste one of your API tokens. It is checked once and not kept: the app opens a session in a cookie
instead, which ends when you sign out, after 7 days, or when the token is revoked.</p>
${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ""}
<form method="post" action="/app/sign-in">
<input type="hidden" name="_csrf" value="${options.csrf}">
<input type="hidden" name="return" value="${options.returnTo}">
<label for="token">API token</label>
<input type="password" id="token" name="token" autocomplete="off" required>
<p><button type="submit">Sign in</button></p>
</form>`,
  );
}
