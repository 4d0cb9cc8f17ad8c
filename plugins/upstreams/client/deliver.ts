/**
 * Hands an incoming message to the SDK in wire order. The SDK handles notifications one
 * microtask late but responses at once, so a progress notification that arrives together
 * with its response would find its handler already gone. Responses are therefore
 * delivered one microtask late as well; all but those `takeNow` settles at once (a direct
 * call's answer: no SDK handler waits on it, and the microtask came after everything the
 * socket queued, on the way to the caller's answer).
 */
import type { JSONRPCMessage } from '#mcp-sdk/types.js';

export function deliver(onmessage: ((m: JSONRPCMessage) => void) | undefined, message: JSONRPCMessage, takeNow?: (m: JSONRPCMessage) => boolean): void {
  if (!onmessage) return;
  if ('result' in message || 'error' in message) {
    if (takeNow?.(message)) return;
    queueMicrotask(() => onmessage(message));
  } else onmessage(message);
}
