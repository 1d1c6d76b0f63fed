// Change requests of a large space through HTTP, in every process mode: a 3,000-page revision's tree is
// over 1 MB (NATS's message limit), so updating, merging and exporting must not send a tree as one message.
import { connect, JSONCodec } from "nats";
import { createOrg, createSpace, createUser, expectSchema, NATS_URL, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { expectPdfFile, parsePdf } from "./change-requests-pdf";
import { MODES, start } from "./modes";

const TOTAL = 3000;

interface PageRef {
  id: string;
  title: string;
}

describe.each(MODES)("change requests of a 3,000-page space over %s", (mode) => {
  let sys: RunningSystem;
  let owner: TestUser;
  let spaceId: string;
  let pages: PageRef[];
  /** The change request the merge test merged, and the revision it made. */
  let merged: { id: string; revision: string } | undefined;

  beforeAll(async () => {
    sys = await start(mode);
    owner = await createUser(sys.admin);
    const orgId = (await createOrg(owner.api)).id;
    spaceId = (await createSpace(owner.api, orgId)).id;
    for (let batch = 0; batch < TOTAL / 1000; batch++) {
      const changes = Array.from({ length: 1000 }, (_, i) => ({
        type: "insert_page",
        title: `Page ${batch * 1000 + i} with a reasonably long title to make the tree heavy`,
        description: "d".repeat(100),
        markdown: `Body ${batch * 1000 + i}`,
      }));
      expect((await sys.admin.post(`/v1/_test/spaces/${spaceId}/changes`, { changes })).status).toBe(201);
    }
    const revision = await owner.api.get(`/v1/spaces/${spaceId}/content`);
    expect(revision.body.pages).toHaveLength(TOTAL);
    // One tree alone is over NATS's 1 MB max_payload; a merge reads three.
    expect(JSON.stringify(revision.body).length).toBeGreaterThan(1024 * 1024);
    pages = revision.body.pages.map((p: PageRef) => ({ id: p.id, title: p.title }));
  }, 180_000);
  afterAll(async () => {
    await sys?.stop();
  });

  async function markdownOf(page: string, cr?: string): Promise<string> {
    const prefix = cr ? `/v1/spaces/${spaceId}/change-requests/${cr}/content` : `/v1/spaces/${spaceId}/content`;
    const res = await owner.api.get(`${prefix}/page/${page}`);
    expect(res.status).toBe(200);
    return res.body.markdown;
  }

  async function changeMain(page: string, markdown: string) {
    expect((await sys.admin.post(`/v1/_test/spaces/${spaceId}/changes`, { changes: [{ type: "update_page", page, markdown }] })).status).toBe(201);
  }

  test("updating from main and merging keep both sides' changes, with three-way merges of trees over 1 MB", async () => {
    const created = await owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Large" });
    expect(created.status).toBe(201);
    const cr = created.body.id as string;
    const edited = await owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr}/content`, {
      changes: [
        { operation: "update_page", page: pages[10].id, document: { markdown: "Changed in the change request" } },
        { operation: "insert_page", document: { markdown: "# Added by the change request\n\nNew page" } },
      ],
    });
    expect(edited.status).toBe(200);

    await changeMain(pages[20].id, "Changed on main");
    expect((await owner.api.get(`/v1/spaces/${spaceId}/change-requests/${cr}`)).body.outdated).toBe(true);
    const updated = await owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr}/update`);
    expect(updated.status).toBe(200);
    expectSchema("updateChangeRequest", 200, updated.body);
    expect(updated.body.result).toBe("update");
    expect(await markdownOf(pages[20].id, cr)).toBe("Changed on main");
    expect(await markdownOf(pages[10].id, cr)).toBe("Changed in the change request");

    // Main moves again, so the merge is three-way too (base, main, change request: three large trees).
    await changeMain(pages[30].id, "Changed on main again");
    const answer = await owner.api.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`);
    expect(answer.status).toBe(200);
    expectSchema("mergeChangeRequest", 200, answer.body);
    expect(answer.body.result).toBe("merge");

    const space = (await owner.api.get(`/v1/spaces/${spaceId}`)).body;
    expect(space.revision).toBe(answer.body.revision);
    const main = (await owner.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as PageRef[];
    expect(main).toHaveLength(TOTAL + 1);
    expect(main.map((p) => p.title)).toContain("Added by the change request");
    expect(await markdownOf(pages[10].id)).toBe("Changed in the change request");
    expect(await markdownOf(pages[20].id)).toBe("Changed on main");
    expect(await markdownOf(pages[30].id)).toBe("Changed on main again");
    expect(await markdownOf(pages[TOTAL - 1].id)).toBe(`Body ${TOTAL - 1}`);
    const after = (await owner.api.get(`/v1/spaces/${spaceId}/change-requests/${cr}`)).body;
    expect(after).toMatchObject({ status: "merged", revisionMerged: answer.body.revision });
    merged = { id: cr, revision: answer.body.revision };
  }, 120_000);

  test("the PDF of a 3,000-page change request prints the first 1,000 pages and says so; one page of it prints alone", async () => {
    const cr = (await owner.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: "Large export" })).body.id as string;
    const asked = await owner.api.get(`/v1/spaces/${spaceId}/change-requests/${cr}/pdf`);
    expect(asked.status).toBe(200);
    expectSchema("getChangeRequestPDF", 200, asked.body);
    const res = await fetch(asked.body.url);
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expectPdfFile(bytes);
    const pdf = await parsePdf(bytes);
    expect(pdf.outline).toHaveLength(1 + 1000);
    expect(pdf.outline[1000].title).toBe(pages[999].title);
    expect(pdf.text).toContain(`The selection has ${TOTAL + 1} pages; this export prints the first 1000`);
    expect(pdf.text).toContain("This export is incomplete");
    expect(pdf.text).toContain("Body 999");
    expect(pdf.text).not.toContain("Body 1000");

    const last = pages[TOTAL - 1];
    const one = await owner.api.get(`/v1/spaces/${spaceId}/change-requests/${cr}/pdf?only=true&page=${last.id}`);
    expect(one.status).toBe(200);
    const single = await parsePdf(Buffer.from(await (await fetch(one.body.url)).arrayBuffer()));
    expect(single.outline.map((item) => item.title)).toEqual(["Contents", last.title]);
    expect(single.text).toContain(`Body ${TOTAL - 1}`);
  }, 120_000);

  // Scaled out, a merge is also a durable @moleculer/channels message on JetStream, kept for consumer groups
  // (one process has no JetStream: the test exists over NATS only).
  if (mode === "nats") test("the merge is kept in the change-requests.merged JetStream channel", async () => {
    expect(merged).toBeDefined();
    const nc = await connect({ servers: NATS_URL });
    try {
      const jsm = await nc.jetstreamManager();
      const codec = JSONCodec<Record<string, unknown>>();
      const found: Array<Record<string, unknown>> = [];
      // The system is shared: other suites' merges may come after this one, so look back through the stream
      // (at most its last 2,000 messages) for this change request's.
      for await (const stream of jsm.streams.list()) {
        if (!stream.config.name.endsWith("_change-requests_merged")) continue;
        const { first_seq: first, last_seq: lastSeq } = stream.state;
        for (let seq = lastSeq; seq >= Math.max(first, lastSeq - 2000) && seq > 0; seq--) {
          const message = await jsm.streams.getMessage(stream.config.name, { seq }).catch(() => null);
          const data = message ? codec.decode(message.data) : undefined;
          if (data?.changeRequestId === merged!.id) {
            found.push(data);
            break;
          }
        }
      }
      expect(found).toContainEqual({ spaceId, changeRequestId: merged!.id, number: expect.any(Number), subject: "Large", revision: merged!.revision });
    } finally {
      await nc.close();
    }
  });
});
