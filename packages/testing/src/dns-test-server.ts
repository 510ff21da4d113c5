import dns2 from "dns2";

const { Packet } = dns2;

/** A record the test DNS server serves. */
export type TestDnsRecord =
  | { type: "CNAME"; value: string }
  | { type: "TXT"; value: string }
  | { type: "MX"; value: string; priority: number };

/** A DNS server on a loopback port, for verification tests that must never reach public DNS. */
export interface DnsTestServer {
  /** `127.0.0.1:<port>`: what `nodeDnsResolver({ servers })` and `MAILPULSE_DNS_SERVERS` take. */
  server: string;
  /** Adds a record at `name` (case and trailing dot do not matter). */
  add(name: string, record: TestDnsRecord): void;
  /** Removes every record at `name`: the name then answers NXDOMAIN. */
  remove(name: string): void;
  /** When true the server reads queries and never answers them (a resolver must time out). */
  silent: boolean;
  /** Queries received so far, as `TYPE name`. */
  readonly queries: string[];
  close(): Promise<void>;
}

const key = (name: string) => name.replace(/\.$/, "").toLowerCase();

/** DNS character strings hold at most 255 bytes: long TXT values (DKIM keys) are split. */
function characterStrings(value: string): string[] {
  const parts: string[] = [];
  for (let index = 0; index < value.length; index += 255) parts.push(value.slice(index, index + 255));
  return parts.length ? parts : [""];
}

/**
 * Starts an authoritative-only DNS server (the `dns2` package) on 127.0.0.1, UDP and TCP on the
 * same port (resolvers retry truncated answers, such as 2048-bit DKIM keys, over TCP).
 * A name with no records answers NXDOMAIN; a name with records of other types answers NOERROR with
 * no answers (NODATA), as real servers do; CNAMEs are followed within the zone.
 */
export async function startDnsTestServer(): Promise<DnsTestServer> {
  const zone = new Map<string, TestDnsRecord[]>();
  const queries: string[] = [];
  const state = { silent: false };

  const handle: Handler = (request, send) => {
    const [question] = request.questions;
    if (!question) return;
    const typeName = Object.entries(Packet.TYPE).find(([, code]) => code === question.type)?.[0] ?? "?";
    queries.push(`${typeName} ${question.name}`);
    if (state.silent) return;
    const response = Packet.createResponseFromRequest(request);
    // dns2's types declare a class where its encoder (and README) take plain objects.
    const answer = (resource: object) => response.answers.push(resource as (typeof response.answers)[number]);
    if (!zone.has(key(question.name))) {
      response.header.rcode = Packet.RCODE.NXDOMAIN;
    } else {
      // Like an authoritative server, follow CNAMEs inside the zone for other record types, so
      // a TXT query at a DKIM CNAME answers the CNAME and the key it points to.
      let name = question.name;
      for (let hops = 0; hops < 8; hops++) {
        const records = zone.get(key(name)) ?? [];
        const cname = records.find((record) => record.type === "CNAME");
        if (cname && question.type !== Packet.TYPE.CNAME) {
          answer({ name, class: Packet.CLASS.IN, ttl: 60, type: Packet.TYPE.CNAME, domain: cname.value });
          name = cname.value;
          continue;
        }
        for (const record of records) {
          const base = { name, class: Packet.CLASS.IN, ttl: 60 };
          if (record.type === "CNAME" && question.type === Packet.TYPE.CNAME) {
            answer({ ...base, type: Packet.TYPE.CNAME, domain: record.value });
          } else if (record.type === "TXT" && question.type === Packet.TYPE.TXT) {
            answer({ ...base, type: Packet.TYPE.TXT, data: characterStrings(record.value) });
          } else if (record.type === "MX" && question.type === Packet.TYPE.MX) {
            answer({ ...base, type: Packet.TYPE.MX, exchange: record.value, priority: record.priority });
          }
        }
        break;
      }
    }
    void send(response);
  };

  // UDP and TCP on one port: take a free UDP port, then the same port for TCP; when another
  // process holds that TCP port, start over with a new UDP port.
  const { udp, tcp, port } = await listenOnOnePort(handle);

  return {
    server: `127.0.0.1:${port}`,
    add(name, record) {
      zone.set(key(name), [...(zone.get(key(name)) ?? []), record]);
    },
    remove(name) {
      zone.delete(key(name));
    },
    get silent() {
      return state.silent;
    },
    set silent(value) {
      state.silent = value;
    },
    queries,
    async close() {
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}

type Handler = Parameters<typeof dns2.createTCPServer>[0];

async function listenOnOnePort(handle: Handler) {
  for (let attempt = 0; ; attempt++) {
    const udp = dns2.createUDPServer(handle);
    await new Promise<void>((resolve, reject) => {
      udp.once("error", reject);
      udp.bind(0, "127.0.0.1", () => resolve());
    });
    const port = udp.address().port;
    const tcp = dns2.createTCPServer(handle);
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once("error", reject);
        tcp.listen(port, "127.0.0.1", () => resolve());
      });
      return { udp, tcp, port };
    } catch (error) {
      udp.close();
      if (attempt >= 20 || (error as { code?: string }).code !== "EADDRINUSE") throw error;
    }
  }
}
