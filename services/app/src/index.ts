export { appSchema, default } from "./app.service";
export { APP_CSP, type AppAnswer, type AppRequest } from "./http";
