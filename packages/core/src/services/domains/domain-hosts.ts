/** Options for the DNS names MailPulse asks organizations (and the operator) to publish. */
export interface DomainHostOptions {
  /** The MX target of `send.<domain>`, where bounces go. Default `bounces.<platformDomain>`. */
  bounceHost?: string;
  /** The SPF include of `send.<domain>`: `v=spf1 include:<spfHost> ~all`. Default `spf.<platformDomain>`. */
  spfHost?: string;
  /**
   * The zone under which each domain's DKIM public key is published: the DKIM CNAME of a domain
   * points to `<key id>.<dkimHost>`. Default `dkim.<platformDomain>`.
   */
  dkimHost?: string;
  /** The DKIM selector of new domains (`<selector>._domainkey.<domain>`). Default `mailpulse`. */
  dkimSelector?: string;
  /** The CNAME target of custom tracking domains (`expectedCNAME`). Default `track.<platformDomain>`. */
  trackingHost?: string;
}

/** {@link DomainHostOptions} with every default applied. */
export type DomainHosts = Required<DomainHostOptions>;

/** Applies the defaults derived from the platform domain. */
export function resolveDomainHosts(platformDomain: string, options: DomainHostOptions = {}): DomainHosts {
  return {
    bounceHost: options.bounceHost ?? `bounces.${platformDomain}`,
    spfHost: options.spfHost ?? `spf.${platformDomain}`,
    dkimHost: options.dkimHost ?? `dkim.${platformDomain}`,
    dkimSelector: options.dkimSelector ?? "mailpulse",
    trackingHost: options.trackingHost ?? `track.${platformDomain}`,
  };
}
