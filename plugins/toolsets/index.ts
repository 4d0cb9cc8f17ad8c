/**
 * toolsets: per-request narrowing of the catalogue. Reads X-Service-Toolset on every
 * meta-tool request (per request, not per session), compiles presets from config.yaml, and
 * provides the `toolsets` service for filter_tools' `toolset` argument.
 */
import { definePlugin, headerValue, type CatalogueView, type ConfigProblem, type ToolsetService } from '../../kernel/index.js';
import { BUILT_IN_PRESETS, compilePresets, presetInfos, type CompiledPreset } from './presets.js';
import { resolveSelectors, viewOf } from './resolve.js';
import { parseSelectors, splitHeader } from './selectors.js';

export const TOOLSET_HEADER = 'x-service-toolset';
/** Parsed header views by header text, per preset generation; bounded. */
const VIEW_CACHE_LIMIT = 256;

export default definePlugin({
  name: 'toolsets',
  description: 'Toolset presets and the X-Service-Toolset header.',
  provides: ['toolsets'],
  setup({ kernel }) {
    let presets: ReadonlyMap<string, CompiledPreset> = new Map(BUILT_IN_PRESETS.map((p) => [p.name, p]));
    let presetsSource = '';
    const headerViews = new Map<string, CatalogueView>();

    kernel.config.addSettingsCheck((settings, parsed) => {
      const result = compilePresets(settings.toolsetPresets);
      if (result.ok) return [];
      return result.problems.map((p): ConfigProblem => {
        const path = ['toolsetPresets', p.preset, ...(p.path ? p.path.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s)) : [])];
        // A problem of the whole preset points at its name; one of a rule at the rule.
        const at = p.path ? parsed.locate(path) : parsed.locate(['toolsetPresets'], p.preset);
        return { file: parsed.file, ...at, field: path.join('.'), message: `preset '${p.preset}': ${p.message}` };
      });
    });

    kernel.hooks.onConfigLoad.tap('toolsets', (next) => {
      const source = JSON.stringify(next.settings.toolsetPresets);
      if (source === presetsSource) return;
      const result = compilePresets(next.settings.toolsetPresets);
      // Invalid presets never get here (the settings check refuses them), but stay safe.
      if (!result.ok) return;
      presets = result.presets;
      presetsSource = source;
      headerViews.clear();
    });

    const service: ToolsetService = {
      resolve: (selectors, within) => resolveSelectors(parseSelectors(selectors), presets, kernel.catalogue, within),
      presets: () => presetInfos(presets),
    };
    kernel.services.provide('toolsets', service);

    kernel.hooks.onRequest.tap('toolsets', (request) => {
      const raw = headerValue(request.headers, TOOLSET_HEADER);
      if (raw === undefined) return;
      let view = headerViews.get(raw);
      if (!view) {
        view = viewOf(parseSelectors(splitHeader(raw)), presets);
        if (headerViews.size >= VIEW_CACHE_LIMIT) headerViews.delete(headerViews.keys().next().value!);
        headerViews.set(raw, view);
      }
      request.view = view;
    });
  },
});
