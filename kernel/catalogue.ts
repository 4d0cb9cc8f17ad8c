/**
 * The catalogue: every aggregated tool, grouped by the source that owns it.
 * A source (`core`, `server:<name>`, `workflows`) replaces its whole tool set at once,
 * so an upstream's tools/list_changed or a reloaded file is one atomic swap. Everything a
 * discovery call needs (summary, discovery form, order) is computed here, once per change,
 * never per request.
 */
import type { SyncHook, SyncWaterfallHook } from 'tapable';
import type { Icon, TaskSupport, ToolAnnotations, ToolDefinition, ToolKind } from './tools.js';
import type { Logger } from './log.js';
import type { SwitchboardError } from './errors.js';

/** Tools a source no longer lists but can account for (a stopped server's last-known tools). */
interface Absence {
  names: ReadonlySet<string>;
  /** Any name that starts so (`x_<server>_`): a server that never listed its tools is down. */
  prefix: string | undefined;
  why: (name: string) => SwitchboardError;
}

export interface DiscoveryEntry {
  name: string;
  summary: string;
  server?: string;
  kind: ToolKind;
  annotations?: ToolAnnotations;
  labels?: Record<string, string>;
  /** Whether the tool may run as a task, when its owner says (MCP's `Tool.execution`). */
  execution?: { taskSupport: TaskSupport };
  icons?: readonly Icon[];
}

export interface CatalogueEntry extends ToolDefinition {
  readonly source: string;
  readonly summary: string;
  /** The entry as list_tools shows it; shared, never mutate. */
  readonly discovery: DiscoveryEntry;
}

const KIND_ORDER: Record<ToolKind, number> = { core: 0, tool: 1, workflow: 2 };

/** One to four words, one way only (the spaces between them are required, so no run of letters is split two ways). */
const FEW_WORDS = String.raw`[\p{L}\p{N}'-]+(?:\s+[\p{L}\p{N}'-]+){0,3}`;
/**
 * A line that only names a section, in at most four words: "## Usage", "Guardrails:", "🎯
 * Purpose" (after hashes, before a colon, or after a symbol; "Delete a tag" is a sentence).
 * Only lines of at most HEADING_MAX characters are tried.
 */
const HEADING = new RegExp(
  String.raw`^(?:#{1,6}\s*${FEW_WORDS}\s*|[^\p{L}\p{N}\s]*\s*${FEW_WORDS}\s*:[^\p{L}\p{N}]*|[^\p{L}\p{N}\s]+\s*${FEW_WORDS}\s*)$`,
  'u',
);
const HEADING_MAX = 80;
const isHeading = (line: string): boolean => line.length <= HEADING_MAX && HEADING.test(line);
/** A section whose first line says what the tool does. */
const PURPOSE = /^[^\p{L}]*(?:purpose|summary|description|overview)\b/iu;
/** A list item's marker or a heading's hashes before a line's words. */
const MARKER = /^(?:#{1,6}\s+|(?:\d{1,2}[.)]|[-*•])\s+)/u;
/** How many lines are looked at for the first that says something (a description's head, not all of it). */
const SUMMARY_LINES = 12;

/**
 * First sentence or first line, whichever is shorter, at most 160 characters; of the first
 * line that is not a section's heading, or the first line of a "Purpose:" section when the
 * description has one (descriptions written as sections began "🎯 Purpose:" and "🛡️
 * Guardrails:", which said nothing of the tool, in list_tools and in the ranking's summary).
 */
export function summarize(description: string): string {
  const lines = description
    .trim()
    .split('\n', SUMMARY_LINES)
    .map((l) => l.trim());
  const purpose = lines.findIndex((l) => isHeading(l) && PURPOSE.test(l));
  const from = purpose >= 0 ? purpose + 1 : 0;
  const line = (lines.slice(from).find((l) => l !== '' && !isHeading(l)) ?? lines[0] ?? '').replace(MARKER, '');
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length > 160 ? `${sentence.slice(0, 157)}...` : sentence;
}

function toEntry(def: ToolDefinition, source: string): CatalogueEntry {
  const summary = summarize(def.description);
  const { name, kind, server } = def;
  const annotations = def.annotations && Object.keys(def.annotations).length > 0 ? def.annotations : undefined;
  // One literal per common shape: properties added after a literal go to a separate property
  // array (86 bytes a tool instead of 72 in the object; 0.4 MiB of them at 10,000 tools).
  const discovery: DiscoveryEntry =
    server === undefined
      ? annotations === undefined
        ? { name, summary, kind }
        : { name, summary, kind, annotations }
      : annotations === undefined
        ? { name, summary, kind, server }
        : { name, summary, kind, server, annotations };
  if (def.labels && Object.keys(def.labels).length > 0) discovery.labels = def.labels;
  if (def.execution?.taskSupport !== undefined) discovery.execution = { taskSupport: def.execution.taskSupport };
  // Last, and only when there are some: an entry without icons stays what it always was.
  if (def.icons && def.icons.length > 0) discovery.icons = def.icons;
  // Not `{ ...def, source, summary, discovery }`: V8 gives every object made by a spread
  // followed by more properties a hidden class of its own (measured: 476 bytes an entry
  // instead of 136; 3 MiB at 10,000 tools). With the spread last, entries of one shape of
  // definition share one. (Object.assign onto `{}` shares one too, but its entries made a
  // 10k-tool query 20 ms instead of 0.3: property reads on them are slow.)
  return { source, summary, discovery, ...def };
}

export class Catalogue {
  private readonly sources = new Map<string, CatalogueEntry[]>();
  private byName = new Map<string, CatalogueEntry>();
  private ordered: readonly CatalogueEntry[] = [];
  private readonly absences = new Map<string, Absence>();
  /** Increases on every change; caches derived from the catalogue key on it. */
  version = 0;

  constructor(
    private readonly hooks: {
      onToolRegister: SyncWaterfallHook<[ToolDefinition]>;
      onCatalogueChange: SyncHook<[Catalogue]>;
    },
    private readonly log: Logger,
  ) {}

  /** Replace every tool of `source` with `tools` (an empty list removes the source). */
  replaceSource(source: string, tools: readonly ToolDefinition[]): void {
    if (tools.length === 0) {
      if (!this.sources.delete(source)) return;
    } else {
      this.sources.set(
        source,
        tools.map((t) => toEntry(this.hooks.onToolRegister.call(t), source)),
      );
    }
    this.rebuild();
  }

  /**
   * `source` no longer lists `names`, but a call to one of them should hear why (its server
   * is stopped, say) rather than that the tool never existed. They stay out of every listing.
   * `prefix`: also any other name that starts so, for a server that is down and never listed
   * its tools (so none is known by name): a call to one hears the server is down, not
   * "tool not found". Only names nobody serves reach here.
   */
  explainAbsence(source: string, names: readonly string[], why: (name: string) => SwitchboardError, prefix?: string): void {
    if (names.length === 0 && prefix === undefined) this.absences.delete(source);
    else this.absences.set(source, { names: new Set(names), prefix, why });
  }

  /** `source`'s tools are gone for good (its server was deleted): calls are TOOL_NOT_FOUND. */
  forgetAbsence(source: string): void {
    this.absences.delete(source);
  }

  /** Why `name` is not in the catalogue, when a source can say; undefined for a tool nobody had. */
  whyAbsent(name: string): SwitchboardError | undefined {
    let byPrefix: Absence | undefined;
    for (const a of this.absences.values()) {
      if (a.names.has(name)) return a.why(name);
      // The longest prefix wins: `x_db_eu_` is more specific than `x_db_`.
      if (a.prefix !== undefined && name.startsWith(a.prefix) && a.prefix.length > (byPrefix?.prefix?.length ?? 0)) byPrefix = a;
    }
    return byPrefix?.why(name);
  }

  get(name: string): CatalogueEntry | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** All entries in catalogue order: core, external, workflows; by name within a kind. */
  all(): readonly CatalogueEntry[] {
    return this.ordered;
  }

  private rebuild(): void {
    const byName = new Map<string, CatalogueEntry>();
    for (const [source, entries] of this.sources) {
      for (const entry of entries) {
        const existing = byName.get(entry.name);
        if (existing) {
          this.log.warn(`tool name '${entry.name}' from ${source} clashes with ${existing.source}; keeping the first`);
          continue;
        }
        byName.set(entry.name, entry);
      }
    }
    this.byName = byName;
    this.ordered = [...byName.values()].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.version++;
    this.hooks.onCatalogueChange.call(this);
  }
}
