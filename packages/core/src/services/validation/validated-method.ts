import type { z } from "zod";
import { parseInput } from "./parse-input.js";

/** The arguments of a validated method: the leading ones, then the input (optional when it may be omitted). */
type WithInput<Leading extends unknown[], Input, Optional extends boolean> = Optional extends true
  ? [...Leading, input?: Input]
  : [...Leading, input: Input];

/**
 * A service method whose last argument is checked by `schema`. Called as a function (what
 * in-process hosts do: `mailpulse.campaigns.create(orgId, input)`), it parses its input with
 * `schema`; its type is the schema's input type, so `tsc` refuses what the schema would.
 * `parsed` runs the same method on input already parsed with the same `schema`: the HTTP handler
 * parses a route's body or query once (with `schema`, which the route declares) and calls it, so
 * the send route validates once per request.
 */
export interface ValidatedMethod<
  Leading extends unknown[],
  Schema extends z.ZodType,
  Result,
  Optional extends boolean = false,
> {
  (...args: WithInput<Leading, z.input<Schema>, Optional>): Promise<Result>;
  /** The method on input parsed with {@link ValidatedMethod.schema}; trusted as it is. */
  parsed(...args: [...Leading, input: z.output<Schema>]): Promise<Result>;
  /** What checks the input: a route serving the method declares it as its body or query schema. */
  readonly schema: Schema;
}

/** Options of {@link validatedMethod}. */
export interface ValidatedMethodOptions {
  /** How many arguments come before the input (`create(orgId, input)`: 1). */
  leading: number;
  /** What an omitted input means (`{}` for a list's query); default none: omitting it is VALIDATION_FAILED. */
  whenOmitted?: unknown;
}

/**
 * Builds a {@link ValidatedMethod} from `run`, which takes the parsed input. A rejected input is
 * VALIDATION_FAILED naming `operation` and the fields (`Invalid input of campaigns.create:
 * "name" is required`); the HTTP handler words the same issues for the request instead.
 */
export function validatedMethod<
  Leading extends unknown[],
  Schema extends z.ZodType,
  Result,
  Optional extends boolean = false,
>(
  schema: Schema,
  operation: string,
  options: ValidatedMethodOptions,
  run: (...args: [...Leading, input: z.output<Schema>]) => Promise<Result>,
): ValidatedMethod<Leading, Schema, Result, Optional> {
  // The casts are this helper's one place of trust: `args` are the typed call's arguments, and
  // parsing turns the input into `z.output<Schema>` whatever TypeScript knew of it.
  const method = async (...args: unknown[]) => {
    const leading = args.slice(0, options.leading);
    const given = args[options.leading];
    const input = given === undefined ? options.whenOmitted : given;
    return run(...([...leading, parseInput(schema, input, operation)] as [...Leading, z.output<Schema>]));
  };
  return Object.assign(method, { parsed: run, schema }) as ValidatedMethod<Leading, Schema, Result, Optional>;
}

/**
 * `method` with both of its entries (the parsing call and `parsed`) run inside `around`: what
 * tracks in-flight sends (so `stop()` can wait for them) wraps a validated method this way.
 */
export function aroundValidated<
  Leading extends unknown[],
  Schema extends z.ZodType,
  Result,
  Optional extends boolean,
>(
  method: ValidatedMethod<Leading, Schema, Result, Optional>,
  around: (run: () => Promise<Result>) => Promise<Result>,
): ValidatedMethod<Leading, Schema, Result, Optional> {
  const wrapped = (...args: WithInput<Leading, z.input<Schema>, Optional>) => around(() => method(...args));
  const parsed = (...args: [...Leading, input: z.output<Schema>]) => around(() => method.parsed(...args));
  return Object.assign(wrapped, { parsed, schema: method.schema });
}
