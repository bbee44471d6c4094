// Tool search: the terms of names, descriptions and queries, synonyms, the ranked index, and which
// tool definitions a chat request carries (deferred loading).
export * from './synonyms';
export * from './tokens';
export * from './toolSearch';
export * from './deferredLoading';
export * from './semantic';
export * from './wordVectors';
