/**
 * Printers of `kubectl get` and friends: pure functions from API objects to the text kubectl
 * prints. See each module: duration.ts (AGE), table.ts (tabwriter + table decoration),
 * columns.ts (per-kind columns), formats.ts (yaml/json/name/jsonpath/custom-columns),
 * jsonpath.ts (the JSONPath dialect), gofmt.ts (Go value formatting).
 */
export * from './duration';
export * from './table';
export * from './columns';
export * from './formats';
export * from './jsonpath';
export * from './gofmt';
