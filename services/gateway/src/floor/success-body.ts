import { z } from '@corridor/config';

/** `{message, data}`, as every success of the public API (decision 0008). */
export const successBody = <T extends z.ZodType>(message: string, data: T) =>
  z.strictObject({ message: z.literal(message), data });
