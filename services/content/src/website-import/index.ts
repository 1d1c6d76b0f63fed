// Website import: a site's pages as markdown pages, fetched without reaching private networks.
export {
  importWebsite,
  IMPORT_DEFAULTS,
  type ImportFetch,
  type ImportFetchOptions,
  type ImportFetchResponse,
  type ImportWebsiteOptions,
  type ImportWebsiteResult,
  type ImportedPage,
} from "./import-website";
