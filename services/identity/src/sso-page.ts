// The page the assertion consumer answers with: the new API token, shown once.
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function tokenPage(fields: { organizationId: string; email: string; token: string; tokenId: string; publicUrl: string }): string {
  const { organizationId, email, token, tokenId, publicUrl } = fields;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Signed in</title></head>
<body>
<h1>Signed in as ${escape(email)}</h1>
<p>Your API token for this sign-in is shown only now. Use it as <code>Authorization: Bearer &lt;token&gt;</code>.</p>
<pre><code id="token" data-token-id="${escape(tokenId)}" data-organization-id="${escape(organizationId)}">${escape(token)}</code></pre>
<p>Revoke it with <code>DELETE ${escape(publicUrl)}/v1/users/&lt;your user id&gt;/tokens/${escape(tokenId)}</code>.</p>
</body>
</html>
`;
}

/** The page a sign-in that may not create an account answers with (status 403): why, and what to do. */
export function refusalPage(fields: { title: string; reason: string; advice: string }): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${escape(fields.title)}</title></head>
<body>
<h1>${escape(fields.title)}</h1>
<p id="reason">${escape(fields.reason)}</p>
<p>${escape(fields.advice)}</p>
</body>
</html>
`;
}
