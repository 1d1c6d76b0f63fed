// The "Test it" console of a published site's API blocks: Scalar's API client (`@scalar/api-client`, its modal)
// on the console page (`{base}/~api-console`), opened at once on the block's operation. The page carries the
// spec and the operation as a JSON data block (`#api-console-data`); requests go from the reader's browser to
// the spec's servers (the page's CSP lists their origins in connect-src). Bundled at build time by
// scripts/build-console.mjs into hashed files the site serves; no CDN.
import "./zod-jitless";
import { createApiClientModal } from "@scalar/api-client/modal";
import { createWorkspaceStore } from "@scalar/workspace-store/client";
import "@scalar/api-client/style.css";

interface ConsoleData {
  document: Record<string, unknown>;
  method: string;
  path: string;
}

async function main(): Promise<void> {
  const data = JSON.parse(document.getElementById("api-console-data")?.textContent ?? "null") as ConsoleData | null;
  const mount = document.getElementById("api-console");
  if (!data || !mount) return;
  const workspaceStore = createWorkspaceStore();
  await workspaceStore.addDocument({ name: "default", document: data.document });
  const modal = createApiClientModal({ el: mount, workspaceStore, options: { hideClientButton: true } });
  const open = () => modal.open({ path: data.path, method: data.method.toLowerCase() as "get" });
  open();
  document.getElementById("api-console-open")?.addEventListener("click", open);
  document.documentElement.dataset.consoleReady = "true";
}

void main();
