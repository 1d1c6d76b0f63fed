// The API shape of a user.
import type { User } from "@docshelf/contracts/identity";
import type { UserDoc } from "./models";

/** GitBook's User: also what `identity.getMany` answers (embedded by members, change requests and comments). */
export type UserResource = User;

/** Emails are shown to the user themself, to instance administrators and to fellow members (`withEmail`). */
export function presentUser(user: UserDoc, publicUrl: string, withEmail: boolean): UserResource {
  const resource: UserResource = {
    object: "user",
    id: user.id,
    displayName: user.displayName,
    urls: { location: `${publicUrl}/v1/users/${user.id}` },
  };
  if (withEmail) resource.email = user.email;
  if (user.photoURL) resource.photoURL = user.photoURL;
  return resource;
}
