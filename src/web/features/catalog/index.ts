// What the catalog offers the other features, and the only file of it they import (decision 045):
// the rest of this folder may change without them. src/web/app composes features and may import
// any of their files.

// The catalog's cached queries, which the operator's edits make stale.
export { catalogQueryKeys } from './catalog-api.ts';
