import type { z } from "zod";

/** What `tsc` reports when a schema refuses some values of the input type it is declared for. */
interface SchemaRefusesSomeInputs<Input> {
  "the schema does not accept every value of its input type": Input;
}

/**
 * Ties a zod schema to the hand-written input type of a service method:
 * `schemaFor<SendEmailInput>()(z.object({...}))` compiles only when the schema's static input type
 * is exactly `Input`: it accepts every value of the type and declares no other.
 *
 * Why both: the hand-written type is what callers read in their editor and what makes `tsc` refuse
 * `emails.send(org, { to: 42 })`; the schema is what runs, for values TypeScript never saw (HTTP
 * bodies, JavaScript callers). Written by hand, the type stays readable (`to: string | string[]`)
 * instead of whatever a transform's input happens to infer to (`unknown`).
 */
export function schemaFor<Input>() {
  return <Schema extends z.ZodType<unknown, Input>>(
    schema: Schema & ([Input] extends [z.input<Schema>] ? unknown : SchemaRefusesSomeInputs<Input>),
  ): Schema => schema;
}
