// Routes served by the identity service.
export const identityRoutes: Record<string, string> = {
  "GET /user": "identity.me",
  "GET /users/:userId": "identity.getUser",
  "POST /users": "identity.createUser",
  "POST /users/:userId/tokens": "identity.createToken",
  "DELETE /users/:userId/tokens/:tokenId": "identity.revokeToken",
};
