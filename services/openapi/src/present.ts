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
  if ("url" in doc.source) resource.sourceURL = doc.source.url;
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
  return version.sourceURL ?? `${versionLocation(version, spec, publicUrl)}/content`;
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
