// The API shape of a user.
import type { UserDoc } from "./models";

export interface UserResource {
  object: "user";
  id: string;
  displayName: string;
  email?: string;
  photoURL?: string;
  urls: { location: string };
}

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
