/**
 * What a tool's own name says it does to the world, and whether a request asks for that. A
 * tool named for destroying (delete_*, kill_*) or for writing (create_*, update_*, add_*)
 * shares every noun with the tools that read the same things, so "which feature flags are on
 * in production" matched create-feature-flag as well as list-feature-flags, and "how many
 * documents are in the orders collection" found insert-many first. The ranking weighs such a
 * tool down when the request says nothing of that act (ranking.ts).
 *
 * A writing tool is weighed down only for a request that plainly reads: it asks a question or
 * names a way of looking (list, show, which, how ...) and no word of it, nor any word the
 * intent table or WordNet relates to one, asks for a change. A request with neither ("the
 * dentist appointment on Tuesday isn't on my calendar yet", "Priya is allergic to peanuts")
 * often asks for a write without a verb, and is left as it is.
 */
import { stem } from '../stem.js';

/** Words of a tool's name that say it destroys. */
export const DESTROYING = new Set(['delete', 'remove', 'erase', 'destroy', 'drop', 'purge', 'clear', 'kill', 'uninstall', 'wipe'].map(stem));

/** Words of a tool's name that say it writes (generate_* is left out: a chart is made to be read). */
export const WRITING = new Set(['create', 'add', 'insert', 'new', 'upsert', 'update', 'edit', 'modify', 'patch', 'set', 'write', 'put'].map(stem));

/** Request words (or words related to one) that ask for a change of some kind. */
export const ASKS_FOR_CHANGE = new Set(
  [
    ...['create', 'add', 'insert', 'new', 'make', 'build', 'draft', 'compose', 'generate', 'register', 'book', 'schedule', 'reschedule'],
    ...['write', 'save', 'store', 'record', 'log', 'file', 'upload', 'attach', 'append', 'upsert', 'remember', 'note', 'keep'],
    ...['put', 'set', 'update', 'edit', 'change', 'modify', 'patch', 'rename', 'relabel', 'fix', 'correct', 'replace', 'rotate', 'apply'],
    ...['bump', 'increase', 'decrease', 'raise', 'lower', 'turn', 'enable', 'disable', 'toggle', 'open', 'start', 'cancel'],
    ...['mark', 'assign', 'tag', 'label', 'move', 'archive', 'merge', 'approve', 'associate', 'link', 'connect', 'reopen', 'resolve'],
    ...['post', 'send', 'reply', 'comment', 'respond', 'share', 'publish', 'submit', 'invite', 'accept', 'decline', 'join', 'react'],
    ...['star', 'pin', 'subscribe', 'follow'],
  ].map(stem),
);

/** A question, or a way of looking at something: the request reads. */
const READS =
  /\b(?:list|show|get|find|search|look|see|read|check|view|display|tell|give|count|fetch|retrieve|enumerate|browse|inspect|what|which|who|whom|when|where|how|whether|did|does|any)\b/i;

/** Whether `query` plainly reads: a sign of reading and none of changing (`changes`: whether any of its words' forms asks for a change). */
export function readsOnly(query: string, changes: boolean): boolean {
  return !changes && READS.test(query);
}
