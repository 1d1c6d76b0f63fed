export { changeRequestsSchema, default } from "./change-requests.service";
