// The reusable pieces of a docshelf process, for services and for the program (packages/server):
// broker options (transport, logging, fault tolerance, the call middleware) and the health server.
// Nothing here imports a service.
export { brokerOptions } from "./moleculer.config";
export { readiness, startHealthServer, type Readiness } from "./health";
export { jsonAnswer, jsonStream, jsonTextAnswer, jsonTextFor, readJson, utf8Chunks, STREAM_CHUNK_BYTES, STREAM_OVER_BYTES } from "./json-stream";
export { OtlpTraceExporter, otlpSpanId, otlpTraceId, toOtlpSpan, type OtlpSpan, type OtlpTraceRequest } from "./otlp-exporter";
export { sampledGauge, jobQueueGauge, JOB_QUEUE_DEPTH, STORE_SIZE_BYTES, type SampledGaugeOptions } from "./sampled-gauge";
