import { createMailer, renderMail } from "./mailer";

describe("mail", () => {
  test("plain text and HTML carry the lines and the link; HTML escapes what an organization's admin chose", () => {
    const { text, html } = renderMail({
      to: "a@example.com",
      subject: "x",
      lines: [`You are invited to join <script>alert(1)</script> "Acme" & co.`],
      link: { url: "https://docs.example.com/sso/invite?token=abc&x=1", label: "Join" },
    });
    expect(text).toContain(`You are invited to join <script>alert(1)</script> "Acme" & co.`);
    expect(text).toContain("Join: https://docs.example.com/sso/invite?token=abc&x=1");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
    expect(html).toContain('<a href="https://docs.example.com/sso/invite?token=abc&#38;x=1">Join</a>');
  });

  test("without SMTP_URL the link is logged for the administrator, and nothing is sent", async () => {
    const warned: string[] = [];
    const mailer = createMailer("", "docshelf@localhost", { info: () => undefined, warn: (...args: unknown[]) => warned.push(String(args[0])) });
    await mailer.send({ to: "b@example.com", subject: "Reset", lines: ["x"], link: { url: "http://localhost/sso/sign-in/reset?token=t", label: "Reset" } });
    expect(warned).toEqual(['email not sent (SMTP_URL is unset): to b@example.com, "Reset": http://localhost/sso/sign-in/reset?token=t']);
    mailer.close();
  });
});
