/**
 * Secrets of the installation kept in its database, so every process on one database agrees on
 * them without configuration (the key that signs return paths and unsubscribe links when no
 * `signingSecret` is configured).
 */
export interface InstanceSecretStore {
  /**
   * The secret stored under `name`; when there is none, stores `candidate` and returns it. Two
   * processes racing on an empty row both get the one that was stored first.
   */
  getOrCreate(name: string, candidate: string): Promise<string>;
}
