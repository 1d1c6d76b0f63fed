// Every signed-in page's small script (built by scripts/build-client.mjs into /app/assets/shell-{hash}.js,
// loaded with `defer`; the pages work without it): Ctrl/Cmd-K's jump dialog, @ suggestions in comment boxes,
// and the arrange page's drag and drop and renaming in place (tree.ts).
import { setUpJump } from "./jump-dialog";
import { setUpMentions } from "./mention-suggest";
import { setUpTree } from "./tree";

setUpJump(document);
setUpMentions(document);
setUpTree(document);
