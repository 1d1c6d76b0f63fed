// SSRF-safe HTTP(S) client for every server-side fetch of a user-supplied URL.
export { safeFetch, SAFE_FETCH_DEFAULTS, type SafeFetchOptions, type SafeFetchResponse } from "./safe-fetch";
export { SafeFetchError, type RefusalReason, type SafeFetchErrorData } from "./errors";
export { addressPolicyFor, canonicalAddress, isPublicAddress, portOf, type AddressPolicy } from "./address-policy";
export { resolveChecked, systemResolver, type Resolver, type ResolvedAddress } from "./resolve";
