/**
 * The key `await using` calls on scope exit: `Symbol.asyncDispose`, which Node defines from
 * 20.4 (MailPulse needs 20.19). Should a runtime lack it, the fallback is the registered symbol
 * the downlevel `await using` helpers of esbuild (tsx, tsup, vitest) look up in its place, so an
 * instance stays disposable wherever those helpers run.
 */
export const asyncDisposeSymbol: typeof Symbol.asyncDispose =
  Symbol.asyncDispose ?? (Symbol.for("Symbol.asyncDispose") as typeof Symbol.asyncDispose);
