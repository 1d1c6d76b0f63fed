// The built-in space templates: each is a few linked pages (and one file) added to the end of a space's tree.
import { newId } from "@docshelf/store";
import type { Change } from "./tree";

export interface TemplateFile {
  name: string;
  contentType: string;
  bytes: Buffer;
}

export interface Template {
  id: string;
  title: string;
  /** Changes that add the template's pages; files are stored first and referenced by name. */
  build(): { changes: Change[]; files: TemplateFile[] };
}

const LOGO = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="30" fill="#3b82f6"/></svg>\n');

function page(title: string, markdown: string, parent?: string): Change & { id: string } {
  return { type: "insert_page", id: newId(), parent: parent ?? null, markdown: `# ${title}\n\n${markdown}` };
}

export const TEMPLATES: Template[] = [
  {
    id: "getting-started",
    title: "Getting started",
    build() {
      // Every link resolves inside the space, the same way in the link report and on a published site.
      // Links are written from leaf pages only: a page with children is its folder's README.md in
      // GitBook's layout, so its relative links start in that folder on a published site.
      const welcome = page(
        "Welcome",
        "Start with the [quickstart](quickstart.md) and its [installation](quickstart/installation.md) steps, then read about [configuration](configuration.md).\n\n![Logo](.gitbook/assets/logo.svg)\n",
      );
      const quickstart = page("Quickstart", "Three steps: install, configure, publish. The page under this one, Installation, starts with the first.\n");
      const install = page("Installation", "Then [configure](../configuration.md) it. Lost? Back to the [welcome page](../welcome.md).\n", quickstart.id);
      const config = page("Configuration", "Back to the [welcome page](welcome.md). Reference: [Node.js](https://nodejs.org/).\n");
      return { changes: [welcome, quickstart, install, config], files: [{ name: "logo.svg", contentType: "image/svg+xml", bytes: LOGO }] };
    },
  },
  {
    id: "api-reference",
    title: "API reference",
    build() {
      const overview = page("API overview", "Every call needs a token: see [authentication](authentication.md). Endpoints: [users](endpoints/users.md).\n");
      const auth = page("Authentication", "Send `Authorization: Bearer <token>`. A missing or unknown token answers 401. Next: the [users](endpoints/users.md) endpoint.\n");
      const endpoints = page("Endpoints", "One page per resource, under this one.\n");
      const users = page("Users", "`GET /users/{id}` answers a user. See [authentication](../authentication.md) and the [overview](../api-overview.md).\n", endpoints.id);
      return { changes: [overview, auth, endpoints, users], files: [] };
    },
  },
  {
    id: "faq",
    title: "FAQ",
    build() {
      const faq = page("FAQ", "Questions by topic: accounts and billing, on the pages under this one.\n");
      const accounts = page("Accounts", "Forgot your password? Ask an administrator. Invoices are under [billing](billing.md).\n", faq.id);
      const billing = page("Billing", "Questions about accounts go to [accounts](accounts.md).\n", faq.id);
      return { changes: [faq, accounts, billing], files: [] };
    },
  },
];

export const TEMPLATE_IDS = TEMPLATES.map((t) => t.id);

export function templateById(id: string): Template | undefined {
  return TEMPLATES.find((t) => t.id === id);
}
