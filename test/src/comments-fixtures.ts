// The cast the comment suites share: an organization's owner, a reader, two commenters and an outsider.
import { addMember, createOrg, createUser, type RunningSystem, type TestUser } from "@docshelf/testkit";
import { start, type Mode } from "./modes";

export interface CommentsCast {
  sys: RunningSystem;
  owner: TestUser;
  orgId: string;
  reader: TestUser;
  commenter: TestUser;
  other: TestUser;
  outsider: TestUser;
}

/** Starts a system and makes the cast; `otherRole` is the second member's role. */
export async function startCommentsCast(mode: Mode, otherRole: "comment" | "edit" = "comment"): Promise<CommentsCast> {
  const sys = await start(mode);
  const owner = await createUser(sys.admin, { displayName: "Owner" });
  const orgId = (await createOrg(owner.api)).id;
  const reader = await createUser(sys.admin, { displayName: "Reader" });
  const commenter = await createUser(sys.admin, { displayName: "Commenter" });
  const other = await createUser(sys.admin, { displayName: "Other" });
  const outsider = await createUser(sys.admin, { displayName: "Outsider" });
  await addMember(owner.api, orgId, reader.email, "read");
  await addMember(owner.api, orgId, commenter.email, "comment");
  await addMember(owner.api, orgId, other.email, otherRole);
  return { sys, owner, orgId, reader, commenter, other, outsider };
}
