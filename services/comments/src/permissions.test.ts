import { commentPermissions } from "./permissions";

describe("commentPermissions", () => {
  test("a reader views only", () => {
    expect(commentPermissions("read", "u1", "u2")).toEqual({ view: true, edit: false, reply: false, delete: false });
  });
  test("a commenter replies to others' comments and edits and deletes their own", () => {
    expect(commentPermissions("comment", "u1", "u2")).toEqual({ view: true, edit: false, reply: true, delete: false });
    expect(commentPermissions("comment", "u1", "u1")).toEqual({ view: true, edit: true, reply: true, delete: true });
  });
  test("an author demoted to reader can no longer edit or delete", () => {
    expect(commentPermissions("read", "u1", "u1")).toEqual({ view: true, edit: false, reply: false, delete: false });
  });
  test("an admin deletes but does not edit others' comments", () => {
    expect(commentPermissions("admin", "u1", "u2")).toEqual({ view: true, edit: false, reply: true, delete: true });
  });
});
