/**
 * Hands an incoming message to the SDK in wire order. The SDK handles notifications one
 * microtask late but responses at once, so a progress notification that arrives together
 * with its response would find its handler already gone. Responses are therefore
 * delivered one microtask late as well.
 */
import type { JSONRPCMessage } from '#mcp-sdk/types.js';

export function deliver(onmessage: ((m: JSONRPCMessage) => void) | undefined, message: JSONRPCMessage): void {
  if (!onmessage) return;
  if ('result' in message || 'error' in message) queueMicrotask(() => onmessage(message));
  else onmessage(message);
}
