/** Number formats shared by the benchmark tables, so every case prints figures the same way. */

/** `27,949` */
export function count(value: number): string {
  return Math.round(value).toLocaleString("en");
}

/** `0.034x` */
export function ratio(value: number): string {
  return `${value.toFixed(value < 0.1 ? 3 : 2)}x`;
}

/** `32 ms`, `1.15 s`, `870 µs` */
export function duration(milliseconds: number): string {
  if (milliseconds >= 1000) return `${(milliseconds / 1000).toFixed(2)} s`;
  if (milliseconds >= 10) return `${milliseconds.toFixed(0)} ms`;
  if (milliseconds >= 1) return `${milliseconds.toFixed(1)} ms`;
  return `${(milliseconds * 1000).toFixed(0)} µs`;
}

/** `12.3 MB` */
export function megabytes(bytes: number): string {
  return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}
