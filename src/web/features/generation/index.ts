// What generation offers the other features, and the only file of it they import (decision 045):
// the rest of this folder may change without them. src/web/app composes features and may import
// any of their files.

// The catalog's pages: the preset page's generate column, and bulk generation from a category.
export { BulkGenerateDialog } from './components/bulk-generate-dialog.tsx';
export { PresetGenerate } from './components/preset-generate.tsx';
export { bulkPlanGate } from './generation-rules.ts';
