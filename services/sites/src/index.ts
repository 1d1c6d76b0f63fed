export { sitesSchema, default } from "./sites.service";
