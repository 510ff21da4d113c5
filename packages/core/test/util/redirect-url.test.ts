import { describe, expect, it } from "vitest";
import { redirectUrl } from "../../src/util/redirect-url.js";

describe("redirectUrl", () => {
  it("serialises international hosts to punycode and percent-encodes the rest", () => {
    expect(redirectUrl("https://例え.jp/")).toBe("https://xn--r8jz45g.jp/");
    expect(redirectUrl("https://example.com/München?q=€#ß")).toBe(
      "https://example.com/M%C3%BCnchen?q=%E2%82%AC#%C3%9F",
    );
  });

  it("drops CR, LF and tabs as browsers do, and encodes NUL", () => {
    expect(redirectUrl("https://example.com/a\r\nb\t?x=\u0000y")).toBe("https://example.com/ab?x=%00y");
  });

  it("refuses what cannot be a 302 to a web page", () => {
    for (const url of [
      "",
      "not a url",
      "javascript:alert(1)",
      "mailto:a@b.example",
      "https://exa mple.com/",
    ]) {
      expect(redirectUrl(url)).toBeUndefined();
    }
  });
});
