// The API shapes of specs, spec versions and version content.
import type { DocumentDoc, ProcessingState, SpecDoc, SpecVisibility, VersionDoc } from "./models";
import type { OpenAPIDocument } from "./parse-spec";
import type { ProcessErrorCode } from "./processing-failure";

export interface SpecPermissions {
  view: boolean;
  edit: boolean;
}

export interface SpecResource {
  object: "openapi-spec";
  id: string;
  createdAt: string;
  updatedAt: string;
  slug: string;
  sourceURL?: string;
  processingState: ProcessingState;
  visibility: SpecVisibility;
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: ProcessErrorCode;
  lastProcessedErrors?: Array<{ message: string; code?: string }>;
  permissions: SpecPermissions;
  urls: { location: string; app: string };
}

export interface VersionResource {
  object: "openapi-spec-version";
  id: string;
  createdAt: string;
  url: string;
  urls: { location: string };
}

export interface VersionContent {
  /** The spec's files by name; external references are refused, so there is one, `openapi.json`. */
  filesystem: { [fileName: string]: OpenAPIDocument };
  url: string;
}

export const ENTRY_FILE = "openapi.json";

export function specLocation(publicUrl: string, organizationId: string, slug: string): string {
  return `${publicUrl}/v1/orgs/${organizationId}/openapi/${slug}`;
}

/**
 * A source URL as readers see it: without any `user:password@` it carries. The credentials are kept for
 * fetching (sent as basic auth, see @docshelf/safe-fetch) but never shown (docs/SECURITY.md).
 */
export function withoutCredentials(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL the service would have accepted; drop anything up to an "@" of the authority all the same.
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, "$1");
  }
  if (!parsed.username && !parsed.password) return url;
  parsed.username = "";
  parsed.password = "";
  return parsed.toString();
}

export function presentSpec(doc: SpecDoc, permissions: SpecPermissions, publicUrl: string): SpecResource {
  const resource: SpecResource = {
    object: "openapi-spec",
    id: doc.id,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
    slug: doc.slug,
    processingState: doc.processingState,
    visibility: doc.visibility,
    permissions,
    urls: { location: specLocation(publicUrl, doc.organizationId, doc.slug), app: `${publicUrl}/o/${doc.organizationId}/openapi/${doc.slug}` },
  };
  if ("url" in doc.source) resource.sourceURL = withoutCredentials(doc.source.url);
  if (doc.lastVersion) resource.lastVersion = doc.lastVersion;
  if (doc.lastProcessedAt) resource.lastProcessedAt = doc.lastProcessedAt;
  if (doc.lastProcessErrorCode) resource.lastProcessErrorCode = doc.lastProcessErrorCode;
  if (doc.lastProcessedErrors?.length) resource.lastProcessedErrors = doc.lastProcessedErrors;
  return resource;
}

function versionLocation(version: VersionDoc, spec: SpecDoc, publicUrl: string): string {
  return `${specLocation(publicUrl, spec.organizationId, spec.slug)}/versions/${version.id}`;
}

/** Where the specification is accessible: its source URL, or for a spec sent as text its content in this API. */
function versionUrl(version: VersionDoc, spec: SpecDoc, publicUrl: string): string {
  return version.sourceURL ? withoutCredentials(version.sourceURL) : `${versionLocation(version, spec, publicUrl)}/content`;
}

export function presentVersion(version: VersionDoc, spec: SpecDoc, publicUrl: string): VersionResource {
  return {
    object: "openapi-spec-version",
    id: version.id,
    createdAt: version.createdAt,
    url: versionUrl(version, spec, publicUrl),
    urls: { location: versionLocation(version, spec, publicUrl) },
  };
}

/** The version content as JSON text, the stored document spliced in without parsing it again. */
export function presentContentJson(version: VersionDoc, document: DocumentDoc, spec: SpecDoc, publicUrl: string): string {
  return `{"filesystem":{${JSON.stringify(ENTRY_FILE)}:${document.json}},"url":${JSON.stringify(versionUrl(version, spec, publicUrl))}}`;
}
