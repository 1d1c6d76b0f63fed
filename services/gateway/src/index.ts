export { gatewaySchema, default } from "./gateway.service";
export { V1_ROUTES } from "./routes";
