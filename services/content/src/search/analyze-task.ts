// The worker task of search indexing (@docshelf/worker-pool): a large page's Markdown split into sections
// and their words counted (SpaceIndex's analysis), so the content service's event loop never holds for a
// page's parse (about 2 s per MiB on a loaded machine); it only adds the terms this answers.
import { analyzeSections, type AnalyzedSection } from "./space-index";
import type { PageInput } from "./sections";

export function analyzePagesTask(pages: PageInput[]): AnalyzedSection[][] {
  return pages.map(analyzeSections);
}
