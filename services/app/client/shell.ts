// Every signed-in page's small script (built by scripts/build-client.mjs into /app/assets/shell-{hash}.js,
// loaded with `defer`; the pages work without it): Ctrl/Cmd-K's jump dialog and @ suggestions in comment boxes.
import { setUpJump } from "./jump-dialog";
import { setUpMentions } from "./mention-suggest";

setUpJump(document);
setUpMentions(document);
