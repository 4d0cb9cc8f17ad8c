/**
 * Secrets the orchestrator holds (service `orchestrator-secrets`, store-kubernetes): what a
 * `clientCredentialsSecretRef` names. Read with the service's own identity; every value read
 * is a secret to scrub from logs and results.
 */
export interface OrchestratorSecrets {
  /** The Secret's data, decoded; `namespace` defaults to the service's own. Rejects naming the Secret when it cannot be read. */
  read(name: string, namespace?: string): Promise<Record<string, string>>;
}
