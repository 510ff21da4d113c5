import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";

const generateKeyPairAsync = promisify(generateKeyPair);

/** A DKIM key pair: the PEM private key signs, the public key goes into DNS. */
export interface DkimKeyPair {
  /** PKCS#8 PEM. A secret: seal it before storing, never return it. */
  privateKey: string;
  /** SubjectPublicKeyInfo DER, base64: the `p=` of the DKIM TXT record. */
  publicKey: string;
}

/**
 * Generates a 2048-bit RSA key pair for one sending domain. Asynchronous because 2048-bit
 * generation takes tens of milliseconds of CPU, which would otherwise block the event loop.
 */
export async function generateDkimKeyPair(): Promise<DkimKeyPair> {
  const { privateKey, publicKey } = await generateKeyPairAsync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "der" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return { privateKey, publicKey: publicKey.toString("base64") };
}

/** The DKIM TXT record value publishing `publicKey` (RFC 6376 section 3.6.1). */
export function dkimTxtValue(publicKey: string): string {
  return `v=DKIM1; k=rsa; p=${publicKey}`;
}
