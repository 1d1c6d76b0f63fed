export { appSchema, default } from "./app.service";
export { type AppAnswer, type AppRequest } from "./http";
