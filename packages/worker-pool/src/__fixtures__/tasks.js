// Tasks of the worker pool's unit tests (plain CommonJS: a worker thread loads it as it is).
"use strict";
exports.add = (a, b) => a + b;
/** Keeps the thread's CPU busy for `ms`. */
exports.spin = (ms) => {
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) n++;
  return n > 0;
};
/** Holds ever more memory until the thread's heap limit ends it. */
exports.hog = () => {
  const held = [];
  for (;;) held.push(new Array(1_000_000).fill(held.length));
};
exports.fail = (message) => {
  throw new TypeError(message);
};
exports.threadId = () => require("node:worker_threads").threadId;
/** Which thread of which process runs the task. */
exports.whoAmI = () => `${process.pid}:${require("node:worker_threads").threadId}`;
/** The process's id and its session's (Linux: /proc/self/stat's sixth field), for the process pool's test. */
exports.session = () => {
  const stat = require("node:fs").readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { pid: process.pid, sid: Number(fields[3]) };
};
/** Answers something a copy cannot be made of (a function). */
exports.uncopyable = () => ({ fn: () => 1 });
/** The process's autogroup line (Linux: "/autogroup-N nice K"). */
exports.autogroup = () => require("node:fs").readFileSync("/proc/self/autogroup", "utf8").trim();
