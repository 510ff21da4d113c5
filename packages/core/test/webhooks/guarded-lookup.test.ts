import type { LookupAddress, LookupOptions } from "node:dns";
import type { LookupFunction } from "node:net";
import { describe, expect, it } from "vitest";
import { BlockedAddressError, blockPrivateAddresses } from "../../src/webhooks/guarded-lookup.js";

/** A resolver answering a fixed list, in whichever form the caller asks for. */
function answering(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
}

function resolveWith(lookup: LookupFunction, options: LookupOptions) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[] }>(
    (resolve) => {
      lookup("hooks.example.com", options, (error, address) => resolve({ error, address }));
    },
  );
}

const publicV4 = { address: "93.184.215.14", family: 4 };
const publicV6 = { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 };

describe("blockPrivateAddresses", () => {
  it("passes public answers through unchanged, in both callback forms", async () => {
    const guarded = blockPrivateAddresses(answering([publicV4, publicV6]));
    expect(await resolveWith(guarded, { all: true })).toEqual({ error: null, address: [publicV4, publicV6] });
    expect(await resolveWith(guarded, {})).toEqual({ error: null, address: publicV4.address });
  });

  it("fails the connection when any answered address is blocked, not only the first", async () => {
    const guarded = blockPrivateAddresses(answering([publicV4, { address: "::ffff:10.0.0.7", family: 6 }]));
    const { error } = await resolveWith(guarded, { all: true });
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect(error?.message).toBe("blocked address ::ffff:10.0.0.7 (private network)");
    expect(error?.code).toBe("EBLOCKEDADDRESS");
  });

  it("checks the single-address form too", async () => {
    const guarded = blockPrivateAddresses(answering([{ address: "169.254.169.254", family: 4 }]));
    expect((await resolveWith(guarded, {})).error?.message).toBe(
      "blocked address 169.254.169.254 (link-local)",
    );
  });

  it("passes a resolver's own error through", async () => {
    const failing: LookupFunction = (hostname, _options, callback) => {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), "");
    };
    const { error } = await resolveWith(blockPrivateAddresses(failing), { all: true });
    expect(error?.code).toBe("ENOTFOUND");
  });
});
