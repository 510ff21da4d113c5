import { createHash, hkdfSync, randomBytes } from "node:crypto";
import type { Logger } from "../../logger.js";
import type { InstanceSecretStore } from "../../ports/storage-instance-secrets.js";
import { decodeEncryptionKey } from "../../util/secret-box.js";

/** Where {@link createSigningKeySource} finds the key, most explicit first. */
export interface SigningKeyInputs {
  /** `MailPulseOptions.signingSecret`: at least 32 characters. */
  signingSecret?: string;
  /** `MailPulseOptions.encryptionKey`: the signing key is derived from it (HKDF) when given. */
  encryptionKey?: string | Uint8Array;
  /** The storage's instance secrets: a key generated once and shared by every process on the database. */
  instanceSecrets?: InstanceSecretStore;
  logger: Logger;
}

/** The key that signs recipient tokens (return paths, unsubscribe links); resolved once. */
export interface SigningKeySource {
  key(): Promise<Uint8Array>;
}

/**
 * Resolves the signing key: `signingSecret`, else derived from `encryptionKey`, else a secret
 * generated once and kept in the database. Only a storage without instance secrets and no option
 * falls back to a key of this process, and says so: links in mail already sent stop working when
 * the process restarts.
 */
export function createSigningKeySource(inputs: SigningKeyInputs): SigningKeySource {
  let pending: Promise<Uint8Array> | undefined;
  const resolve = async (): Promise<Uint8Array> => {
    if (inputs.signingSecret !== undefined) {
      return createHash("sha256").update(inputs.signingSecret).digest();
    }
    if (inputs.encryptionKey !== undefined) {
      const master = decodeEncryptionKey(inputs.encryptionKey);
      return new Uint8Array(hkdfSync("sha256", master, "", "mailpulse recipient tokens", 32));
    }
    if (inputs.instanceSecrets) {
      const stored = await inputs.instanceSecrets.getOrCreate(
        "recipient-token-signing-key",
        randomBytes(32).toString("base64url"),
      );
      return Buffer.from(stored, "base64url");
    }
    inputs.logger.info(
      "No signingSecret and a storage without instance secrets: return paths and unsubscribe links are signed with a key of this process only, and stop working after a restart",
    );
    return randomBytes(32);
  };
  return {
    key() {
      pending ??= resolve().catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
      return pending;
    },
  };
}
