// Sampling: a server's request for a model completion, approved by the person before any model sees it.
export * from './rateLimit';
export * from './sampling';
export * from './samplingView';
export * from './samplingAlways';
