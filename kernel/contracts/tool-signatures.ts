/**
 * Tools as TypeScript (service `tool-signatures`, provided by code-mode when it is switched
 * on): describe_tool and list_core_tools add each tool's signature as a run_code script calls
 * it, so a model writes typed calls. Absent, those answers stay as the interface has them.
 */
import type { CatalogueEntry } from '../catalogue.js';

export interface ToolSignatures {
  /** `tools.<name>(args: In): Promise<Out>`, from the entry's input and output schemas; bounded in size whatever the schemas. */
  typescript(entry: CatalogueEntry): string;
}
