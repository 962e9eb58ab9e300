// The layer rules of ../ARCHITECTURE (docs/decisions.md, "One structure"): `npm run lint:deps` checks them in CI.
// Type imports count (tsPreCompilationDeps), so a cycle through `import type` is still a cycle.
/** @type {import('dependency-cruiser').IConfiguration} */
const LAYERS = '^(api|app|services|workflows|activities|models|lib)/';
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'No import circle anywhere in the layers, type imports included.',
      severity: 'error',
      from: { path: LAYERS },
      to: { circular: true, path: LAYERS },
    },
    {
      name: 'lib-imports-no-layer-above',
      comment: 'lib/ holds small pieces with no domain knowledge: it imports nothing from the layers above it.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(api|app|services|workflows|activities|models)/' },
    },
    {
      name: 'workflows-stay-deterministic',
      comment: 'Workflow modules (not lifecycles, the client side) import no services, models, lib, api or app, not even types (their contract holds those).',
      severity: 'error',
      from: { path: '^workflows/', pathNot: '(^|/)lifecycle\\.ts$' },
      to: { path: '^(services|models|lib|api|app)/' },
    },
    {
      name: 'presenters-are-pure',
      comment: 'A presenter maps what a service returned: it imports no model, not even its type (a service view names what it returns).',
      severity: 'error',
      from: { path: '^api/.*present\\.ts$' },
      to: { path: '^models/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|test|bench|fuzz)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
