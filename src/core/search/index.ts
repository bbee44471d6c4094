// Tool search: the terms of names, descriptions and queries, synonyms, and the ranked index.
export * from './synonyms';
export * from './tokens';
export * from './toolSearch';
