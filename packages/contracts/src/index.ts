// The internal API between services, one module per service: import `@docshelf/contracts/<service>`.
export { action, call, event, broadcast, emit, type Action, type ActionCaller, type AnswerOf, type EventBroadcaster, type EventDescriptor, type ParamsOf, type PayloadOf } from "./action";
export * as content from "./content";
export * as orgs from "./orgs";
export * as identity from "./identity";
export * as sites from "./sites";
export * as comments from "./comments";
export * as changeRequests from "./change-requests";
export * as openapi from "./openapi";
export * as gitSync from "./git-sync";
export * as events from "./events";
export * as keptAccess from "./kept-access";
export * as app from "./app";
