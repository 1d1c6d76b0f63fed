export { contentSchema, default } from "./content.service";
