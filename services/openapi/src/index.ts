export { openapiSchema, default } from "./openapi.service";
export type { SpecContent, SpecPages } from "./internal.actions";
