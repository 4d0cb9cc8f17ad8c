// The entry of the bundled program (build-program.js): the CLI, which bin/switchboard.js runs,
// and the kernel's public API, which `switchboard/kernel` re-exports for third-party plugins
// (one file, so the program and its plugins share one kernel). Each is required on first use:
// in the bundle a require of one of our ES modules is a function that evaluates it then, so a
// client command never evaluates the kernel, and the kernel alone never the CLI.
module.exports = {
  main: (...args) => require('../dist/app/cli/main.js').main(...args),
  get kernel() {
    return require('../dist/kernel/index.js');
  },
};
