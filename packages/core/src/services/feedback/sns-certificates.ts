/** Fetches the PEM text at an SNS certificate URL (already checked to be SNS's). */
export type SnsCertificateFetcher = (url: string) => Promise<string>;

/** Certificates kept at most; SNS rotates them rarely, and each URL names one for good. */
const maxCachedCertificates = 32;
const fetchTimeoutMs = 5000;
const maxCertificateBytes = 64 * 1024;

/**
 * The default {@link SnsCertificateFetcher}: a GET over HTTPS (the system's CAs vouch for the
 * host, which the caller checked is `sns.<region>.amazonaws.com`) with a 5 s timeout, no
 * redirects, at most 64 KiB.
 */
export const fetchSnsCertificate: SnsCertificateFetcher = async (url) => {
  const response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(fetchTimeoutMs) });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  const text = await response.text();
  if (text.length > maxCertificateBytes) throw new Error(`GET ${url} answered more than a certificate`);
  return text;
};

/**
 * A cache in front of `fetch`: each certificate URL is fetched once (concurrent asks share the
 * fetch), up to 32 URLs, the oldest dropped first. A failed fetch is not kept, so the next
 * message tries again.
 */
export function createSnsCertificateCache(fetchCertificate: SnsCertificateFetcher) {
  const cache = new Map<string, Promise<string>>();
  return {
    get(url: string): Promise<string> {
      const known = cache.get(url);
      if (known) return known;
      const fetched = fetchCertificate(url);
      cache.set(url, fetched);
      if (cache.size > maxCachedCertificates) cache.delete(cache.keys().next().value!);
      fetched.catch(() => cache.delete(url));
      return fetched;
    },
  };
}
