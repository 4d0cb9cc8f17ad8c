/**
 * A V8 bug, worked around. Node 20's V8 (11.3) inlines JS-to-Wasm calls into optimized code;
 * when such a frame is deoptimized lazily on return from Cedar (whose glue JSON.parses the
 * answer inside the call), the process aborts with "Fatal error ... unreachable code" in
 * Deoptimizer::DoComputeBuiltinContinuation. A loop of some 20,000 decisions that reads their
 * answers reproduces it more often than not; without the inlining it never did. The flag only
 * changes how optimized code calls Wasm (through the wrapper, not inlined), which costs less
 * than a microsecond per decision. Set once, on import, before any decision is optimized.
 */
import { setFlagsFromString } from 'node:v8';

// Later V8s may not know the flag (and would print an error for it): only where it is known.
const V8_MAJOR = Number(process.versions.v8.split('.')[0]);
if (V8_MAJOR <= 12) setFlagsFromString('--no-turbo-inline-js-wasm-calls');
