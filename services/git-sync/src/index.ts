export { gitSyncSchema } from "./git-sync.service";
