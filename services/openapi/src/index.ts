export { openapiSchema, default, type SpecContent } from "./openapi.service";
