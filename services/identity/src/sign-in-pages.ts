// The HTML of identity's sign-in pages (password, email links, reset, first-run setup). Every form carries
// the CSRF token of identity's form cookie; none has a script or a style (CSP default-src 'none').
import { escape, hidden } from "./browser";
import { PASSWORD_MAX, PASSWORD_MIN } from "./passwords";

export interface SignInFields {
  csrf: string;
  app: string;
  returnTo: string;
  email?: string;
  error?: string;
  notice?: string;
}

const alert = (text: string | undefined, kind: "error" | "notice") => (text ? `<p class="${kind}" role="${kind === "error" ? "alert" : "status"}" id="${kind}">${escape(text)}</p>` : "");
const passwordInput = (id: string, label: string, autocomplete: string) =>
  `<label for="${id}">${escape(label)}</label>\n<input type="password" id="${id}" name="password" autocomplete="${autocomplete}" minlength="${PASSWORD_MIN}" maxlength="${PASSWORD_MAX}" required>`;

export function signInBody(f: SignInFields): string {
  const binding = hidden("_csrf", f.csrf) + hidden("app", f.app) + hidden("return", f.returnTo);
  const email = escape(f.email ?? "");
  return `${alert(f.error, "error")}${alert(f.notice, "notice")}
<form method="post" action="/sso/sign-in" id="password-form">
${binding}
<label for="email">Email</label>
<input type="email" id="email" name="email" autocomplete="username" value="${email}" required>
${passwordInput("password", "Password", "current-password")}
<p><button type="submit">Sign in</button></p>
</form>
<h2>Sign in without a password</h2>
<form method="post" action="/sso/sign-in/link" id="link-form">
${binding}
<label for="link-email">Email</label>
<input type="email" id="link-email" name="email" autocomplete="username" value="${email}" required>
<p><button type="submit">Email me a sign-in link</button></p>
</form>
<p>The link signs you in in this browser only. <a href="/sso/sign-in/forgot">Forgot your password?</a> <a href="/app/sign-in">Other ways to sign in</a></p>`;
}

export function sentBody(what: string): string {
  return `<p id="notice" role="status">If an account has this email, we sent it ${escape(what)}. Check your inbox (and spam folder).</p>
<p>No email server is configured on some instances: then ask your administrator for the link.</p>`;
}

export function forgotBody(csrf: string, error?: string): string {
  return `${alert(error, "error")}<form method="post" action="/sso/sign-in/forgot" id="forgot-form">
${hidden("_csrf", csrf)}
<label for="email">Email</label>
<input type="email" id="email" name="email" autocomplete="username" required>
<p><button type="submit">Email me a reset link</button></p>
</form>`;
}

export function resetBody(csrf: string, token: string, email: string, error?: string): string {
  return `${alert(error, "error")}<form method="post" action="/sso/sign-in/reset" id="reset-form">
${hidden("_csrf", csrf)}${hidden("token", token)}
<input type="email" name="username" autocomplete="username" value="${escape(email)}" readonly hidden>
${passwordInput("password", `New password (at least ${PASSWORD_MIN} characters)`, "new-password")}
<p><button type="submit">Set password</button></p>
</form>`;
}

export function magicBody(csrf: string, token: string): string {
  return `<p>Continue to sign in to docshelf in this browser.</p>
<form method="post" action="/sso/sign-in/magic" id="magic-form">
${hidden("_csrf", csrf)}${hidden("token", token)}
<p><button type="submit">Sign in</button></p>
</form>`;
}

export function setupBody(csrf: string, token: string, error?: string): string {
  return `${alert(error, "error")}<p>No administrator exists yet. Create the first one: it can do anything on this instance.</p>
<form method="post" action="/sso/setup" id="setup-form">
${hidden("_csrf", csrf)}${hidden("token", token)}
<label for="displayName">Name</label>
<input type="text" id="displayName" name="displayName" autocomplete="name" maxlength="64" required>
<label for="email">Email</label>
<input type="email" id="email" name="email" autocomplete="username" required>
${passwordInput("password", `Password (at least ${PASSWORD_MIN} characters)`, "new-password")}
<p><button type="submit">Create the administrator</button></p>
</form>`;
}

export { doneMessage as doneBody } from "./browser";

export function inviteBody(csrf: string, token: string, email: string, organizationTitle: string): string {
  return `<p>You are invited to join <strong>${escape(organizationTitle)}</strong> as ${escape(email)}. Choose your name and a password to create your account.</p>
<form method="post" action="/sso/invite" id="invite-form">
${hidden("_csrf", csrf)}${hidden("token", token)}
<input type="email" name="username" autocomplete="username" value="${escape(email)}" readonly hidden>
<label for="displayName">Name</label>
<input type="text" id="displayName" name="displayName" autocomplete="name" maxlength="64" required>
${passwordInput("password", `Password (at least ${PASSWORD_MIN} characters)`, "new-password")}
<p><button type="submit">Create my account and join</button></p>
</form>`;
}
