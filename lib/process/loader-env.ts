/**
 * Environment variables that change what a process runs rather than what it is told: they
 * load code (NODE_OPTIONS=--import=..., LD_PRELOAD, PYTHONSTARTUP, BASH_ENV), choose where
 * code or packages come from (PATH, PYTHONPATH, npm_config_registry, UV_INDEX_URL, HOME and
 * XDG_CONFIG_HOME, whose config files npm, pip and uv read), or hand an interpreter options.
 * A server created through a core tool must not set them: allowedCommands pins argv, and
 * these would unpin it (`npx` with NODE_OPTIONS runs whatever the caller names). The lists
 * cover what node, npm/npx, python, pip, uv/uvx, ruby, perl, the shells, the JVM, go and the
 * dynamic loader read; `runtimeServers.allowedEnv` admits a name the operator accepts.
 */

/** Read by name. */
const NAMES = new Set([
  // the shell's own search path and home (rc files, ~/.npmrc, ~/.config/pip, ~/.local site-packages)
  'PATH',
  'HOME',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  // node
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_REPL_EXTERNAL_MODULE',
  'NODE_COMPILE_CACHE',
  'NODE_V8_COVERAGE',
  'NODE_REDIRECT_WARNINGS',
  'NODE_ICU_DATA',
  'NODE_PRESERVE_SYMLINKS',
  'DENO_DIR',
  // python (PYTHONWARNINGS and PYTHONBREAKPOINT import modules they name; PYTHONUSERBASE's site-packages run .pth files)
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONSTARTUP',
  'PYTHONINSPECT',
  'PYTHONUSERBASE',
  'PYTHONEXECUTABLE',
  'PYTHONPLATLIBDIR',
  'PYTHONPYCACHEPREFIX',
  'PYTHONWARNINGS',
  'PYTHONBREAKPOINT',
  'PYTHONCASEOK',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  // ruby, perl
  'RUBYOPT',
  'RUBYLIB',
  'GEM_HOME',
  'GEM_PATH',
  'BUNDLE_GEMFILE',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'PERL5DB',
  // shells: files sourced at start, options, a trace prompt that expands commands
  'BASH_ENV',
  'ENV',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'ZDOTDIR',
  // the JVM, go, glibc's charset modules
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'GOFLAGS',
  'GOPROXY',
  'GOSUMDB',
  'GONOSUMDB',
  'GOINSECURE',
  'GCONV_PATH',
]);

/**
 * Read by prefix: the dynamic loader's (LD_PRELOAD, DYLD_INSERT_LIBRARIES), npm's config
 * (npm_config_registry, _userconfig, _node_options; npm reads the prefix in any case), uv's
 * and pip's (index URLs, config files, the interpreter), corepack's (the registry it fetches
 * package managers from), pipx's, git's (core.sshCommand for a
 * git dependency), bash's exported functions (BASH_FUNC_npx%% replaces a command).
 */
const PREFIXES = ['LD_', 'DYLD_', 'NPM_CONFIG_', 'COREPACK_', 'UV_', 'PIP_', 'PIPX_', 'GIT_', 'BASH_FUNC_'];

/** Whether a variable of this name changes what a process runs. Compared without case: npm and Windows read names so. */
export function isLoaderVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return NAMES.has(upper) || PREFIXES.some((p) => upper.startsWith(p));
}

/** The names in `env` that are loader variables and not in `allowed` (exact names), in the map's order. */
export function loaderVariables(env: Record<string, unknown> | undefined, allowed: readonly string[]): string[] {
  if (!env) return [];
  return Object.keys(env).filter((name) => isLoaderVariable(name) && !allowed.includes(name));
}
