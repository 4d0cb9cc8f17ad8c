/**
 * Which workflows can run now and which tools each lacks (workflows). Read by whoever reports
 * it outside the protocol (store-kubernetes writes it to each Workflow's status); changes
 * with the catalogue, so a reader re-reads on `onCatalogueChange` and `onConfigLoad`.
 */
export interface WorkflowAvailabilityEntry {
  readonly name: string;
  readonly available: boolean;
  /** Tools the workflow calls (nested workflows followed) that are not in the catalogue, sorted. */
  readonly missing: readonly string[];
}

export interface WorkflowAvailability {
  /** Every workflow in force, by name. */
  list(): WorkflowAvailabilityEntry[];
}
