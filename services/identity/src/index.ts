export { identitySchema, default } from "./identity.service";
export { TOKEN_PREFIX } from "./tokens";
