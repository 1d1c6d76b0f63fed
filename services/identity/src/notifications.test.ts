// Notifications on identity's broker: kept per user (the newest MAX_NOTIFICATIONS), one's own only, never of one's own doing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ServiceBroker, type ServiceSchema } from "moleculer";
import { bindConfig, loadConfig } from "@docshelf/config";
import { hashToken, type Caller } from "@docshelf/access";
import type { NewNotification, NotificationResource } from "@docshelf/contracts/identity";
import { identitySchema } from "./identity.service";
import { NOTIFICATION_MAILS } from "./attempts";
import type { Mail } from "./mailer";
import { MAX_NOTIFICATIONS } from "./notifications.actions";

const ADMIN = "dsk_bootstrap-token-for-notification-tests-0123";

describe("notifications", () => {
  let dir: string;
  let broker: ServiceBroker;
  let admin: Caller;
  let alice: { id: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "identity-notifications-"));
    broker = new ServiceBroker({ logger: false });
    bindConfig(broker, loadConfig({ DATA_DIR: dir, ADMIN_TOKEN: ADMIN }));
    broker.createService(identitySchema() as unknown as ServiceSchema);
    await broker.start();
    admin = (await broker.call<Caller | null, { tokenHash: string }>("identity.authenticate", { tokenHash: hashToken(ADMIN) }))!;
    alice = await broker.call("identity.createUser", { email: "alice@example.com", displayName: "Alice" }, { meta: { user: admin } });
  });
  afterAll(async () => {
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const note = (userId: string, excerpt: string, actorId = admin.id): NewNotification => ({ userId, kind: "mention", actorId, excerpt, where: "Space", link: "/s/space1#comments", spaceId: "space1" });
  const list = (user: { id: string }) =>
    broker.call<{ items: NotificationResource[]; unread: number }, { limit: number }>("identity.listNotifications", { limit: MAX_NOTIFICATIONS }, { meta: { user: { id: user.id } } });

  test("only the newest MAX_NOTIFICATIONS of a user are kept; a user's own doing and unknown users store nothing", async () => {
    const many = Array.from({ length: MAX_NOTIFICATIONS + 5 }, (_, i) => note(alice.id, `n${i}`));
    for (let i = 0; i < many.length; i += 100) await broker.call("identity.notify", { notifications: many.slice(i, i + 100) });
    const { items, unread } = await list(alice);
    expect(unread).toBe(MAX_NOTIFICATIONS);
    expect(items).toHaveLength(MAX_NOTIFICATIONS);
    expect(items[0].excerpt).toBe(`n${MAX_NOTIFICATIONS + 4}`);
    expect(items.at(-1)!.excerpt).toBe("n5");
    expect(items[0].actor?.displayName).toBe("Administrator");
    expect(await broker.call("identity.notify", { notifications: [note(alice.id, "self", alice.id), note("nobody", "ghost")] })).toEqual({ stored: 0 });
  });

  test("mails at most NOTIFICATION_MAILS a window to a user; none once they turned emails off", async () => {
    const bob = await broker.call<{ id: string }, object>("identity.createUser", { email: "bob@example.com", displayName: "Bob" }, { meta: { user: admin } });
    const carol = await broker.call<{ id: string }, object>("identity.createUser", { email: "carol@example.com", displayName: "Carol" }, { meta: { user: admin } });
    const sent: Mail[] = [];
    const svc = broker.getLocalService("identity") as unknown as { mailer: { send(mail: Mail): Promise<void> } };
    svc.mailer.send = async (mail) => void sent.push(mail);
    await broker.call("identity.notify", { notifications: Array.from({ length: NOTIFICATION_MAILS + 5 }, (_, i) => note(bob.id, `b${i}`)) });
    expect(sent.filter((m) => m.to === "bob@example.com")).toHaveLength(NOTIFICATION_MAILS);
    expect(sent[0]).toMatchObject({ subject: "Administrator mentioned you in Space", lines: expect.arrayContaining(["b0"]) });
    expect(sent[0].link.url).toMatch(/\/s\/space1#comments$/);
    await broker.call("identity.setNotificationSettings", { email: false }, { meta: { user: { id: carol.id } } });
    expect(await broker.call("identity.getNotificationSettings", {}, { meta: { user: { id: carol.id } } })).toEqual({
      email: false,
      emailKinds: { mention: true, reply: true, "review-request": true, merge: true, watch: true },
    });
    await broker.call("identity.notify", { notifications: [note(carol.id, "c")] });
    expect(sent.filter((m) => m.to === "carol@example.com")).toEqual([]);
    expect((await list(carol)).unread).toBe(1);
  });

  test("per kind: a kind turned off is not mailed (the others are, and every kind is still stored); a kind left out keeps its setting", async () => {
    const erin = await broker.call<{ id: string }, object>("identity.createUser", { email: "erin@example.com", displayName: "Erin" }, { meta: { user: admin } });
    const sent: Mail[] = [];
    const svc = broker.getLocalService("identity") as unknown as { mailer: { send(mail: Mail): Promise<void> } };
    svc.mailer.send = async (mail) => void sent.push(mail);
    const as = { meta: { user: { id: erin.id } } };
    expect(await broker.call("identity.setNotificationSettings", { emailKinds: { reply: false, merge: false } }, as)).toEqual({
      email: true,
      emailKinds: { mention: true, reply: false, "review-request": true, merge: false, watch: true },
    });
    // Another call naming one kind keeps the others as they were; the email switch stays on.
    expect(await broker.call("identity.setNotificationSettings", { emailKinds: { merge: true } }, as)).toMatchObject({
      email: true,
      emailKinds: { mention: true, reply: false, "review-request": true, merge: true, watch: true },
    });
    const kinds = ["mention", "reply", "review-request", "merge"] as const;
    await broker.call("identity.notify", { notifications: kinds.map((kind) => ({ ...note(erin.id, kind), kind })) });
    expect(sent.filter((m) => m.to === "erin@example.com").map((m) => m.lines[1]).sort()).toEqual(["mention", "merge", "review-request"]);
    expect((await list(erin)).unread).toBe(4);
    // An unknown kind, or a value that is not a boolean, is refused.
    await expect(broker.call("identity.setNotificationSettings", { emailKinds: { digest: false } }, as)).rejects.toMatchObject({ code: 422 });
    await expect(broker.call("identity.setNotificationSettings", { emailKinds: { reply: "no" } }, as)).rejects.toMatchObject({ code: 422 });
  });

  test("watch notifications carry what happened (the headline, the mail's subject); the watch kind has its own email switch", async () => {
    const fay = await broker.call<{ id: string }, object>("identity.createUser", { email: "fay@example.com", displayName: "Fay" }, { meta: { user: admin } });
    const sent: Mail[] = [];
    const svc = broker.getLocalService("identity") as unknown as { mailer: { send(mail: Mail): Promise<void> } };
    svc.mailer.send = async (mail) => void sent.push(mail);
    const watched = (activity: string): NewNotification => ({ ...note(fay.id, activity), kind: "watch", activity: activity as NewNotification["activity"], where: "change request #3 of Space", link: "/s/space1/~/changes/3" });
    await broker.call("identity.notify", { notifications: ["comment", "reply", "review-request", "merge"].map(watched) });
    const mine = () => sent.filter((m) => m.to === "fay@example.com").map((m) => m.subject);
    const verbs = mine().map((subject) => / (commented on|replied in|asked for a review of|merged) change request #3 of Space$/.exec(subject)?.[1]);
    expect(verbs).toEqual(["commented on", "replied in", "asked for a review of", "merged"]);
    const { items } = await list(fay);
    expect(items.map((n) => [n.kind, n.activity])).toEqual([
      ["watch", "merge"],
      ["watch", "review-request"],
      ["watch", "reply"],
      ["watch", "comment"],
    ]);
    // Other kinds carry no activity; an unknown activity is refused.
    await broker.call("identity.notify", { notifications: [note(fay.id, "plain")] });
    expect((await list(fay)).items[0]).not.toHaveProperty("activity");
    await expect(broker.call("identity.notify", { notifications: [{ ...watched("comment"), activity: "poke" }] })).rejects.toMatchObject({ code: 422 });
    // Watch emails off: stored, not mailed; a mention still mailed.
    await broker.call("identity.setNotificationSettings", { emailKinds: { watch: false } }, { meta: { user: { id: fay.id } } });
    const before = mine().length;
    await broker.call("identity.notify", { notifications: [watched("comment"), note(fay.id, "still mailed")] });
    expect(mine().length).toBe(before + 1);
    expect((await list(fay)).unread).toBe(7);
  });

  test("marking read: one's own only (another's is 404), or all", async () => {
    const { items } = await list(alice);
    await expect(broker.call("identity.markNotificationsRead", { notificationId: items[0].id }, { meta: { user: { id: admin.id } } })).rejects.toMatchObject({ code: 404 });
    expect(await broker.call("identity.markNotificationsRead", { notificationId: items[0].id }, { meta: { user: { id: alice.id } } })).toEqual({ marked: 1 });
    expect(await broker.call("identity.markNotificationsRead", {}, { meta: { user: { id: alice.id } } })).toEqual({ marked: MAX_NOTIFICATIONS - 1 });
    expect((await list(alice)).unread).toBe(0);
  });

  test("a purged space's notifications are deleted", async () => {
    const dave = await broker.call<{ id: string }, object>("identity.createUser", { email: "dave@example.com", displayName: "Dave" }, { meta: { user: admin } });
    await broker.call("identity.notify", { notifications: [note(dave.id, "gone"), { ...note(dave.id, "kept"), spaceId: "space2" }] });
    await broker.broadcast("content.space.purged", { spaceId: "space1", organizationId: "org1" });
    await new Promise((resolve) => setImmediate(resolve));
    const svc = broker.getLocalService("identity") as unknown as { notifications: { count(f: object): Promise<number> } };
    for (let i = 0; i < 100 && (await svc.notifications.count({ userId: dave.id, spaceId: "space1" })) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await list(dave)).items.map((n) => n.excerpt)).toEqual(["kept"]);
  });

  test("a batch over 100, an unknown kind or a link that is not a local path is refused", async () => {
    const bad = [
      Array.from({ length: 101 }, () => note(alice.id, "x")),
      [{ ...note(alice.id, "x"), kind: "poke" }],
      [{ ...note(alice.id, "x"), link: "https://evil.example/" }],
      [{ ...note(alice.id, "x"), link: "//evil.example/" }],
    ];
    for (const notifications of bad) await expect(broker.call("identity.notify", { notifications })).rejects.toMatchObject({ code: 422 });
  });
});
