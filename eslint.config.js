// @ts-check
/**
 * Lint: typescript-eslint's strict type-checked rules, and the architecture's boundaries as
 * import rules (docs/architecture.md): the kernel imports no plugin, library, application or
 * client; plugins reach the kernel only through its public API and never each other; gotpl
 * imports nothing from Switchboard. Formatting is Prettier's (`.prettierrc.json`), not ESLint's.
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from './scripts/lint/boundaries.js';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { switchboard: { rules: { boundaries } } },
    rules: {
      'switchboard/boundaries': 'error',
      // With noUncheckedIndexedAccess, `list[i]!` after a bounds check is how this code states
      // what it knows; the compiler, not the linter, makes every such place explicit.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Numbers and booleans read naturally in messages; objects and undefined still do not.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `return reply(ctx, ...)` and `return void ctx.redirect(...)` are this code's early exit
      // from a handler that returns nothing: one line that says "answer and stop".
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-meaningless-void-operator': 'off',
      // The SDK's low-level Server is deprecated in favour of McpServer, which cannot relay
      // arbitrary tools, resources and prompts; Switchboard is a relay. oauth4webapi's
      // allowInsecureRequests is what permits a loopback identity provider in development. The
      // SSE transports are deprecated by the SDK and still part of the interface Switchboard serves.
      '@typescript-eslint/no-deprecated': [
        'error',
        {
          allow: [
            { from: 'package', package: '@modelcontextprotocol/sdk', name: 'Server' },
            { from: 'package', package: 'oauth4webapi', name: 'allowInsecureRequests' },
            { from: 'package', package: '@modelcontextprotocol/sdk', name: 'SSEServerTransport' },
            { from: 'package', package: '@modelcontextprotocol/sdk', name: 'SSEClientTransport' },
          ],
        },
      ],
      // An `async` function rejects where a plain one would throw: callers of an interface that
      // returns a promise rely on that even when this implementation awaits nothing.
      '@typescript-eslint/require-await': 'off',
      // Two objects that refer to each other: one is declared first and assigned once the other exists.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Switchboard loads the v1 SDK from its bundle (packages/mcp-sdk/README.md); by its name it
    // would load a second copy, file by file, beside it. Tests and fixtures use it by name.
    files: ['kernel/**/*.ts', 'lib/**/*.ts', 'plugins/**/*.ts', 'app/**/*.ts', 'client/**/*.ts', 'packages/gotpl/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'], message: "Import the SDK as '#mcp-sdk/<subpath>' (packages/mcp-sdk)." },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'packages/*/test/**/*.ts', 'packages/*/bench/**/*.ts'],
    rules: {
      // `let sb: Running` assigned in before(): when before() failed, after() finds it
      // undefined whatever its type says, so `sb?.stop()` is the correct cleanup.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // chai's property assertions (`expect(x).to.be.empty`) are expressions by design.
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
);
