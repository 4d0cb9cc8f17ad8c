/**
 * What the endpoint says about running catalogue tools: its initialize instructions and the
 * refusals of a tools/call that names something other than a meta-tool. The way to run a
 * catalogue tool is the meta-tools plugin's (its call_tool), so the plugin supplies this
 * prose (Endpoint.setWording); the kernel holds only the neutral wording used without it.
 */
export interface EndpointWording {
  /** initialize's `instructions`; none when unset. */
  instructions?: string;
  /** The refusal of a tools/call naming a catalogue tool directly. */
  notCallableDirectly(name: string, args: Record<string, unknown>): string;
  /** The refusal of a tools/call naming neither a meta-tool nor a catalogue tool. */
  unknownTool(name: string, metaTools: readonly string[]): string;
}

export const NEUTRAL_WORDING: EndpointWording = {
  notCallableDirectly: (name) => `Tool '${name}' is not callable directly on this endpoint`,
  unknownTool: (name, metaTools) => `Unknown tool '${name}'. This endpoint serves only ${metaTools.length ? metaTools.join(', ') : 'no tools'}.`,
};
