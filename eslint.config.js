// @ts-check
/**
 * Lint: typescript-eslint's strict type-checked rules, and the architecture's boundaries as
 * import rules (docs/architecture.md): the kernel imports no plugin, library, application or
 * client; plugins reach the kernel only through its public API and never each other; gotpl
 * imports nothing from Switchboard. Formatting is Prettier's (`.prettierrc.json`), not ESLint's.
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // With noUncheckedIndexedAccess, `list[i]!` after a bounds check is how this code states
      // what it knows; the compiler, not the linter, makes every such place explicit.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Numbers and booleans read naturally in messages; objects and undefined still do not.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `() => void promise` and `(x) => set.add(x)` in callbacks are deliberate and clear.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true, ignoreVoidOperator: true }],
      // An `async` function rejects where a plain one would throw: callers of an interface that
      // returns a promise rely on that even when this implementation awaits nothing.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
);
