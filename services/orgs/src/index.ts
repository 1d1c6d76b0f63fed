export { orgsSchema, default } from "./orgs.service";
