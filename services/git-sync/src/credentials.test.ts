import { CredentialSealer, repoNameOf, scrub, splitRepoUrl } from "./credentials";

describe("repository URL credentials", () => {
  it("splits credentials off the URL", () => {
    expect(splitRepoUrl("https://alice:s%40cret@git.example.com/acme/docs.git#x")).toEqual({
      url: "https://git.example.com/acme/docs.git",
      credentials: { username: "alice", password: "s@cret" },
    });
    expect(splitRepoUrl("http://git.example.com/acme/docs.git")).toEqual({ url: "http://git.example.com/acme/docs.git" });
    expect(splitRepoUrl("ssh://git@example.com/x")).toBeNull();
    expect(splitRepoUrl("not a url")).toBeNull();
  });

  it("names the repository", () => {
    expect(repoNameOf("https://git.example.com/acme/docs.git")).toBe("acme/docs");
  });

  it("scrubs userinfo, the password in every encoding and the basic auth header from messages", () => {
    const credentials = { username: "alice", password: "hunter2!" };
    const basic = Buffer.from("alice:hunter2!").toString("base64");
    const message = `fetch https://alice:hunter2!@h/x failed; pw hunter2! enc ${encodeURIComponent("hunter2!")} header Basic ${basic}`;
    const clean = scrub(message, credentials);
    expect(clean).not.toContain("hunter2");
    expect(clean).not.toContain(basic);
    expect(clean).toContain("https://h/x");
  });

  it("seals and opens credentials; another key cannot open them", () => {
    const sealed = new CredentialSealer("k1").seal({ username: "u", password: "p" });
    expect(sealed).not.toContain("p\"");
    expect(new CredentialSealer("k1").open(sealed)).toEqual({ username: "u", password: "p" });
    expect(new CredentialSealer("k2").open(sealed)).toBeNull();
  });
});
