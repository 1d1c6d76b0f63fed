// A real OpenID Provider (oidc-provider) on loopback for the OIDC sign-in suite, run as its own process
// (oidc-provider is ES modules only). Argument: JSON {port, clientId, clientSecret, redirectUris}. It signs
// in whichever account the suite last set (POST /test/control {account, tamper}), consenting at once;
// `tamper: "nonce"` re-signs the token endpoint's ID token with another nonce (the OP's own key), to show
// that the relying party checks it. Prints "ready <issuer>" once listening.
import { generateKeyPairSync } from "node:crypto";
import http from "node:http";
import Provider from "oidc-provider";
import { decodeJwt, importJWK, SignJWT } from "jose";

const { port, clientId, clientSecret, redirectUris } = JSON.parse(process.argv[2]);
const issuer = `http://127.0.0.1:${port}`;
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: "jwk" }), kid: "test-key", alg: "RS256", use: "sig" };

let account = { sub: "nobody", email: "nobody@example.com", email_verified: true, name: "Nobody" };
let tamper = null;
const accounts = new Map();

const provider = new Provider(issuer, {
  clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, grant_types: ["authorization_code"], response_types: ["code"] }],
  jwks: { keys: [jwk] },
  cookies: { keys: ["oidc-op-test-cookie-key"] },
  pkce: { required: () => true },
  features: { devInteractions: { enabled: false } },
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  conformIdTokenClaims: false,
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  async findAccount(_ctx, sub) {
    const found = accounts.get(sub);
    if (!found) return undefined;
    return { accountId: sub, claims: () => ({ ...found }) };
  },
});

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
}

const callback = provider.callback();
const server = http.createServer(async (req, res) => {
  try {
    if (req.url === "/test/control" && req.method === "POST") {
      const body = JSON.parse(await readBody(req));
      if (body.account) {
        account = body.account;
        accounts.set(account.sub, account);
      }
      tamper = body.tamper ?? null;
      res.writeHead(204).end();
      return;
    }
    if (req.url.startsWith("/interaction/")) {
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId: account.sub, clientId: details.params.client_id });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId: account.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
      return;
    }
    if (req.url.startsWith("/token") && tamper === "nonce") {
      // Let the provider answer into a buffer, then change the ID token's nonce and sign it again.
      const chunks = [];
      const realWrite = res.write.bind(res);
      const realEnd = res.end.bind(res);
      res.write = (chunk) => (chunks.push(Buffer.from(chunk)), true);
      res.end = (chunk) => {
        if (chunk) chunks.push(Buffer.from(chunk));
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        if (!body.id_token) return realEnd(Buffer.concat(chunks));
        const claims = decodeJwt(body.id_token);
        importJWK(jwk, "RS256")
          .then((key) => new SignJWT({ ...claims, nonce: "not-the-nonce-that-was-sent" }).setProtectedHeader({ alg: "RS256", kid: jwk.kid }).sign(key))
          .then((idToken) => {
            const out = Buffer.from(JSON.stringify({ ...body, id_token: idToken }));
            res.setHeader("content-length", out.length);
            realWrite(out);
            realEnd();
          });
        return res;
      };
    }
    callback(req, res);
  } catch (err) {
    res.writeHead(500, { "content-type": "text/plain" }).end(String(err));
  }
});
server.listen(port, "127.0.0.1", () => process.stdout.write(`ready ${issuer}\n`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
