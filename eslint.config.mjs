import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NOT_HTML = 'File data must be rendered as text (textContent, createElement) or escaped, never parsed as HTML.';
const TABLE_CAST =
  'A table of the results has the type its name gives it (ResultTables, src/core/results/types.ts): read it with tableOf(results, name) (src/core/results/tables.ts), never cast it.';
const CAST = ':matches(TSAsExpression, TSTypeAssertion)';
/** `x.<property> as T`, `x.<property>.name as T` (also `?.` and `!`), `<accessor>(...) as T`. */
const castsOf = (property, accessor, message) =>
  [
    `${CAST} > MemberExpression[property.name='${property}']`,
    `${CAST} > MemberExpression > MemberExpression.object[property.name='${property}']`,
    `${CAST} > ChainExpression > MemberExpression > MemberExpression.object[property.name='${property}']`,
    `${CAST} > TSNonNullExpression > MemberExpression > MemberExpression.object[property.name='${property}']`,
    `${CAST} > CallExpression[callee.name='${accessor}']`,
    `${CAST} > TSNonNullExpression > CallExpression[callee.name='${accessor}']`,
  ].map((selector) => ({ selector, message }));
export const TABLE_CASTS = castsOf('tables', 'tableOf', TABLE_CAST);
const CURVE_CAST =
  'A curve of the results is named by ResultCurves (src/core/results/types.ts): read it by its typed name, with curveOf(results, name) or metricVsKCurves / otherCurves (src/core/results/curves.ts), never cast the curves.';
export const CURVE_CASTS = castsOf('curves', 'curveOf', CURVE_CAST);
const RESULTS_CAST =
  'An object becomes Results only through checkResults (src/core/results/validate.ts) / parseEvalLensJson (src/core/compare/evalLensFile.ts), which check it against the schema first: never cast to Results.';
/** `x as Results`, `x as Results['tables']` (and `<Results>x`) outside validate.ts. */
const RESULTS_CASTS = [
  `${CAST} > TSTypeReference.typeAnnotation[typeName.name='Results']`,
  `${CAST} > TSIndexedAccessType.typeAnnotation > TSTypeReference.objectType[typeName.name='Results']`,
].map((selector) => ({ selector, message: RESULTS_CAST }));

const GENERIC_CURVE =
  'A curve a task writes has its own extra columns: type it as ResultCurves[name] or Curve<its columns> (src/core/results/types.ts), not the generic Curve, which takes any column name and so lets a misnamed one through to the results.';
/** The generic `Curve` (no type argument) in a writer of results: it is assignable to every named curve. */
export const GENERIC_CURVES = [
  { selector: "TSTypeReference[typeName.name='Curve']:not([typeArguments])", message: GENERIC_CURVE },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      '.cache/**',
      'test-artifacts/**',
      'bench/data/**',
      'examples/**/*.py',
      // ajv's code, made from the config schema by scripts/gen-config-validator.mjs
      'src/core/config/configValidator.generated.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.mjs', '**/*.js', 'bin/*'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Text from files reaches the webview and the exports: it is rendered with textContent or
    // escaped by the export writers, never parsed as HTML.
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['innerHTML', 'outerHTML', 'insertAdjacentHTML'].map((property) => ({ property, message: NOT_HTML })),
        ...['write', 'writeln'].map((property) => ({ object: 'document', property, message: NOT_HTML })),
      ],
      // Readers of results do not cast a table or the curves: their names give their types.
      'no-restricted-syntax': ['error', ...TABLE_CASTS, ...CURVE_CASTS],
    },
  },
  {
    // Only the validator turns an object into Results (after checking it against the schema).
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    ignores: ['src/core/results/validate.ts'],
    rules: { 'no-restricted-syntax': ['error', ...TABLE_CASTS, ...CURVE_CASTS, ...RESULTS_CASTS] },
  },
  {
    // The tasks write the curves: each as its named type, so the compiler checks its columns.
    files: ['src/core/tasks/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...TABLE_CASTS, ...CURVE_CASTS, ...RESULTS_CASTS, ...GENERIC_CURVES] },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'src/core must not import vscode: the CLI and the worker use it.' }] },
      ],
    },
  },
);
