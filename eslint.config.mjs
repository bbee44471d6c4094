// Lint rules that encode the architecture: the core and the webview protocol stay free of VS Code,
// of process spawning and of the DOM, so they can be tested in plain Node and shared by both sides.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const impureModules = [
  { name: 'vscode', message: 'src/core and src/protocol never import vscode: define a port and implement it in src/vscode.' },
  { name: 'child_process', message: 'Process code lives in src/node.' },
  { name: 'node:child_process', message: 'Process code lives in src/node.' },
];
// The rooms depend inwards only: src/core on nothing of the adapters (it defines ports they implement),
// src/protocol on nothing at all (both the host and the webview import it).
const adapterRooms = { regex: '^(\\.\\./)+(vscode|node|cli)(/|$)', message: 'src/core never imports the adapters (src/vscode, src/node, src/cli): define a port in core and implement it there.' };
const outsideProtocol = { regex: '^\\.\\./', message: 'src/protocol imports nothing outside itself: it is the view model both sides share.' };

const pureRooms = (patterns) => ({
  'no-restricted-imports': ['error', { paths: impureModules, patterns }],
  'no-restricted-globals': ['error',
    { name: 'window', message: 'No DOM in src/core or src/protocol.' },
    { name: 'document', message: 'No DOM in src/core or src/protocol.' },
    { name: 'navigator', message: 'No DOM in src/core or src/protocol.' },
  ],
});

// One call gate: a tool is called only through src/core/calls (ToolCallGate). The registry's caller is
// handed to the gate at construction; only the connection layers below it may touch `callTool`.
const oneCallGate = {
  'no-restricted-properties': ['error', {
    property: 'callTool',
    message: 'Call tools through ToolCallGate (src/core/calls): it resolves, refuses and records every call.',
  }],
  'no-restricted-syntax': ['error',
    {
      selector: "Identifier[name='handOverToolCaller'], Identifier[name='grantToolCalls']",
      message: 'Only the ServerRegistry hands its tool caller to the gate (src/core/calls).',
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', '.demo-state/**', 'bench/.build/**', 'node_modules/**', '.toolchain/**', '.test-results/**', 'test/fixtures/**', 'demo/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'eqeqeq': ['error', 'smart'],
      // A union type with its helpers in a same-named namespace (ServerState.canStart) is the house style.
      '@typescript-eslint/no-namespace': 'off',
    },
  },
  { files: ['src/core/**/*.ts'], rules: pureRooms([adapterRooms]) },
  { files: ['src/protocol/**/*.ts'], rules: pureRooms([outsideProtocol]) },
  {
    files: ['src/**/*.ts', 'bench/**/*.ts', 'webview/**/*.ts'],
    // The connection layers the gate's caller goes down through, and the places that hand it over.
    ignores: [
      'src/core/calls/**', 'src/node/connection.ts', 'bench/bare-path.ts', 'src/core/lifecycle/serverController.ts', 'src/core/lifecycle/controllerTypes.ts',
      'src/core/lifecycle/redactConnection.ts', 'src/core/lifecycle/registry.ts', 'src/core/lifecycle/liveConnection.ts',
    ],
    rules: oneCallGate,
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
