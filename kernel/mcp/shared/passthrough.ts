/**
 * A result "schema" that accepts what it is given. The SDK validates every result against
 * a zod schema; for results Switchboard only forwards (tool results, a client's answer to
 * an upstream's question) that is cost without benefit, and it would strip fields the
 * next hop may need.
 */
import type { ResultSchema } from '#mcp-sdk/types.js';

export const PASSTHROUGH = { safeParse: (data: unknown) => ({ success: true, data }) } as unknown as typeof ResultSchema;
