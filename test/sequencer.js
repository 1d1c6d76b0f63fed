// The order the end-to-end suites start in: longest first, so that no long suite starts last while the other
// worker idles. How long: jest's own record when this machine ran the suite before, else suite-times.json (each
// suite's seconds in a full run, committed; `node test/suite-times.js <npm test summary>` rewrites it), else the
// file's size as jest guesses (a second per 2 KB). A fresh clone, as in CI, has no record of jest's, and a file's size
// says little about how long its suite takes (a browser suite is short and slow).
const Sequencer = require("@jest/test-sequencer").default;
const { statSync } = require("node:fs");
const path = require("node:path");

let listed = {};
try {
  listed = require("./suite-times.json");
} catch {
  /* none yet: file sizes */
}

class LongestFirst extends Sequencer {
  sort(tests) {
    const seconds = (test) => {
      const recorded = this.time(test);
      if (recorded > 0) return recorded / 1000;
      const known = listed[path.basename(test.path)];
      if (typeof known === "number") return known;
      try {
        return statSync(test.path).size / 2000;
      } catch {
        return 0;
      }
    };
    for (const test of tests) test.duration = Math.round(seconds(test) * 1000);
    return [...tests].sort((a, b) => Number(this.hasFailed(b)) - Number(this.hasFailed(a)) || b.duration - a.duration);
  }
}

module.exports = LongestFirst;
