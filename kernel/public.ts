/**
 * The package's `switchboard/kernel` export (package.json `exports`): the public API of
 * index.ts. As tsc writes it, it re-exports index.js; `npm run build` then points it at the
 * bundled program's kernel (scripts/build-program.js), so a third-party plugin imports the very
 * kernel the running Switchboard uses, bundled or not (docs/decisions.md, "The program bundled
 * at build").
 */
export * from './index.js';
