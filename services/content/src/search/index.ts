// Full-text search over the pages of spaces' revisions (space and organization search).
export { SearchIndex, type PageInput, type SearchOptions, type SearchPageHit, type SearchSectionHit, type SearchSpaceHit } from "./search-index";
export { presentSearchPage, presentSearchSpace, type SearchPageResult, type SearchSectionResult, type SearchSpaceResult } from "./present";
export { MAX_QUERY_LENGTH, checkQuery } from "./query";
