// Tool review: each tool a server offers pinned at first sight (a changed definition waits for the
// person), scanned for poisoning, and tool outputs that bring outside content scanned the same way.
// Other rooms import from here, not from the individual files.
export * from './pinStore';
export * from './poisoning';
export * from './toolPin';
export * from './toolReview';
export * from './outputScan';
