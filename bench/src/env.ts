/** A bench knob from the environment, or `fallback` when unset; a value out of range stops the run before it starts. */
export function numberFromEnv(name: string, fallback: number, min: number, max: number, whole = true): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!(value >= min && value <= max) || (whole && !Number.isInteger(value)))
    throw new Error(`${name} must be a ${whole ? 'whole ' : ''}number ${min}–${max}, got ${raw}`);
  return value;
}
