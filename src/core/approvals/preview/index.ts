// File previews for approvals: what a file-writing tool call will change, predicted before it runs.
// Other rooms import from here.
export * from './contentWrite';
export * from './detection';
export * from './fileSystemPort';
export * from './fileText';
export * from './filesystemTools';
export * from './previewDiff';
export * from './serverPaths';
export * from './textEdits';
export * from './types';
