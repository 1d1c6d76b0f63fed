// Imported first by site-edge.ts, before systems.ts reads its settings: the 50 connections by default.
process.env.BENCH_CONNECTIONS ||= "50";
