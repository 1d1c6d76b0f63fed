// The worker-thread task of the website import (@docshelf/worker-pool): the crawled pages' HTML, links
// already rewritten, turned into Markdown. Turndown's work grows faster than its input on some HTML
// (a 400 KiB table took minutes), so it runs off the event loop that answers requests, within the
// pool's time and memory limits.
import { htmlToMarkdown } from "./to-markdown";

export function htmlToMarkdownTask(htmls: string[]): string[] {
  return htmls.map(htmlToMarkdown);
}
