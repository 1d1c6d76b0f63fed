// The store contract as a reusable jest suite: every adapter must pass it unchanged.
// Test-only: excluded from the build (tsconfig.build.json) and registered by store.test.ts.
import type { Store } from "../types";
import { blobsContract } from "./blobs";
import { documentsContract } from "./documents";
import { filtersContract } from "./filters";
import { harnessFor, type ContractOptions } from "./harness";
import { indexesContract } from "./indexes";
import { pagingContract } from "./paging";
import { persistenceContract } from "./persistence";
import { writesContract } from "./writes";

export type { ContractOptions } from "./harness";

/** Registers the contract's tests for the store that `open` returns (a fresh or reopened one per call). */
export function runStoreContract(name: string, open: () => Promise<Store>, options: ContractOptions = {}): void {
  describe(`store contract: ${name}`, () => {
    const h = harnessFor(open);
    documentsContract(h);
    filtersContract(h);
    pagingContract(h);
    writesContract(h);
    indexesContract(h);
    blobsContract(h, options);
    if (options.persistent) persistenceContract(h);
  });
}
