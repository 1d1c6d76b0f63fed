export { gatewaySchema, default } from "./gateway.service";
export { V1_ROUTES } from "./routes";
export { IDEMPOTENT_ROUTES } from "./idempotency";
export { MemoryCounterStore, type CounterStore } from "./counter-store";
export { MemoryIdempotencyStore, type IdempotencyStore, type IdempotencyRecord, type StoredAnswer, type ClaimResult } from "./idempotency-store";
export { openNatsStores, bucketName, type NatsStores } from "./nats-stores";
