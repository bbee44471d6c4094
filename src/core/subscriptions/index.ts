// Resource subscriptions: who watches which resource (open documents, chat attachments), what each
// server was asked, and which attached resources changed since they were attached.
export * from './attachmentChanges';
export * from './registryWatches';
export * from './resourceWatches';
