/**
 * What a common request word means in a tool catalogue, where WordNet (related.ts) does not
 * know computing: "remember" -> memory, a "folder" is a directory, a "note" an observation
 * kept in memory, a ".txt" a file. A small general table written from how people ask for
 * the tasks tools do (files, memory, calendar, mail, web, code, editing verbs), never from
 * one query of a benchmark: each line names a meaning, not a tool. Read left to right: a
 * query word on the left also looks for the words on its right, at INTENT_WEIGHT (below an
 * exact word, above a WordNet relative). Both sides go through the stemmer when loaded.
 */
import { stem } from '../stem.js';

const TABLE: Record<string, string[]> = {
  // Memory: remembering is storing an observation about an entity in a knowledge graph.
  remember: ['memory', 'knowledge', 'observation', 'store'],
  memorize: ['memory', 'knowledge', 'store'],
  recall: ['memory', 'knowledge', 'search'],
  forget: ['memory', 'delete', 'remove'],
  note: ['observation', 'memory', 'comment'],
  fact: ['observation', 'knowledge', 'entity'],
  information: ['observation', 'knowledge', 'memory'],
  detail: ['observation', 'detail'],
  later: ['memory'],
  know: ['knowledge', 'memory'],
  person: ['entity', 'user', 'contact'],
  someone: ['entity', 'person', 'user'],
  people: ['entity', 'user', 'contact'],
  // Files and folders on a disk.
  folder: ['directory'],
  directory: ['folder'],
  document: ['file'],
  disk: ['file', 'filesystem'],
  computer: ['file', 'local'],
  photo: ['image', 'media'],
  picture: ['image', 'media'],
  txt: ['file', 'text'],
  ini: ['file', 'config'],
  csv: ['file'],
  json: ['file'],
  yaml: ['file'],
  nested: ['tree', 'recursive'],
  structure: ['tree'],
  big: ['size'],
  space: ['size'],
  permitted: ['allowed', 'access'],
  allowed: ['permitted', 'access'],
  // Editing verbs: the words tools use for them.
  open: ['read', 'get', 'navigate'],
  print: ['read', 'output'],
  show: ['get', 'read', 'list'],
  see: ['get', 'read', 'list'],
  look: ['search', 'get', 'find'],
  save: ['write', 'store', 'create'],
  store: ['save', 'write', 'memory'],
  keep: ['save', 'store'],
  put: ['write', 'add', 'create'],
  make: ['create', 'new'],
  new: ['create'],
  add: ['create', 'sum'],
  change: ['edit', 'update', 'modify'],
  modify: ['edit', 'update'],
  replace: ['edit', 'update'],
  remove: ['delete'],
  erase: ['delete'],
  drop: ['delete', 'remove'],
  discard: ['delete'],
  trash: ['delete'],
  cancel: ['delete'],
  duplicate: ['copy', 'clone'],
  copy: ['clone', 'fork', 'duplicate'],
  rename: ['move'],
  undo: ['reset', 'revert'],
  combine: ['merge'],
  aside: ['stash'],
  history: ['log', 'history', 'activity'],
  changed: ['diff', 'status', 'history'],
  finish: ['complete'],
  finished: ['complete', 'completed'],
  done: ['complete', 'completed'],
  tick: ['complete', 'check'],
  back: ['reopen', 'restore'],
  style: ['format'],
  bold: ['format'],
  colour: ['format'],
  color: ['format'],
  tab: ['sheet', 'tab'],
  // A word and its usual short form in computing: a tool's name often has the one, a request the other.
  configuration: ['config'],
  config: ['configuration'],
  database: ['db'],
  db: ['database'],
  application: ['app'],
  app: ['application'],
  environment: ['env'],
  env: ['environment'],
  documentation: ['docs'],
  docs: ['documentation'],
  repository: ['repo'],
  parameter: ['param'],
  param: ['parameter'],
  statistics: ['stats'],
  stats: ['statistics'],
  // Time and calendar.
  schedule: ['calendar', 'event'],
  meeting: ['event', 'calendar'],
  appointment: ['event', 'calendar'],
  agenda: ['event', 'calendar'],
  available: ['free', 'busy', 'freebusy'],
  book: ['create', 'event', 'reserve'],
  standup: ['event', 'meeting'],
  today: ['current', 'date'],
  now: ['current'],
  remind: ['reminder', 'task'],
  epoch: ['timestamp'],
  unix: ['timestamp'],
  ago: ['relative'],
  timezone: ['time', 'zone', 'convert'],
  // Mail and chat.
  mail: ['email'],
  inbox: ['email'],
  reply: ['reply', 'comment', 'respond'],
  answer: ['reply', 'respond'],
  said: ['message', 'history', 'comment'],
  conversation: ['thread', 'message'],
  spam: ['delete', 'junk'],
  channel: ['channel', 'history'],
  // Web and browser.
  website: ['web', 'page', 'site', 'url'],
  site: ['web', 'page', 'url'],
  link: ['url', 'page'],
  article: ['page', 'url', 'web'],
  news: ['web', 'search', 'news'],
  internet: ['web', 'search'],
  online: ['web', 'search'],
  press: ['click'],
  headless: ['browser'],
  login: ['fill', 'form', 'type'],
  popup: ['dialog'],
  alert: ['dialog', 'alert'],
  mouse: ['hover'],
  outline: ['snapshot', 'structure'],
  crawl: ['crawl'],
  collect: ['crawl', 'extract'],
  changes: ['monitor', 'diff'],
  watch: ['monitor', 'watch'],
  // Work items and code hosting.
  bug: ['issue'],
  tracker: ['issue'],
  layout: ['describe', 'schema'],
  ticket: ['issue'],
  todo: ['task'],
  chore: ['task'],
  repo: ['repository'],
  pr: ['pull', 'request'],
  crash: ['issue', 'error', 'event'],
  spreadsheet: ['sheet', 'workbook', 'excel'],
  workbook: ['sheet', 'excel'],
  graph: ['chart'],
  plot: ['chart'],
  visualise: ['chart'],
  visualize: ['chart'],
  customer: ['contact', 'company', 'crm'],
  directions: ['route', 'direction'],
  drive: ['directions', 'route'],
  walk: ['directions', 'route'],
  route: ['directions'],
  far: ['distance'],
  near: ['nearby', 'places', 'search'],
  hotel: ['places'],
  restaurant: ['places'],
  cafe: ['places'],
  shop: ['places'],
  high: ['elevation'],
  altitude: ['elevation'],
  coordinates: ['geocode'],
  address: ['geocode'],
  cluster: ['context', 'kubernetes'],
  rental: ['listing', 'airbnb', 'stay'],
  snippets: ['records', 'upsert'],
  passages: ['documents', 'rerank'],
  relevance: ['rerank'],
  recording: ['replay'],
  deal: ['objects', 'properties', 'crm'],
  fields: ['properties', 'fields'],
};

/** How much a word found through this table counts against the query's own word (1). */
export const INTENT_WEIGHT = 0.6;

let stemmed: Map<string, string[]> | undefined;

/** The intent words of one stemmed query term, stemmed; empty when the table has none. */
export function intentOf(term: string): readonly string[] {
  if (!stemmed) {
    stemmed = new Map();
    for (const [word, targets] of Object.entries(TABLE)) {
      const key = stem(word);
      const list = stemmed.get(key) ?? [];
      for (const t of targets.map(stem)) if (t !== key && !list.includes(t)) list.push(t);
      stemmed.set(key, list);
    }
  }
  return stemmed.get(term) ?? [];
}
