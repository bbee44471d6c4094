// The one shell reader of the core: the parser port (implemented over tree-sitter-bash in src/node),
// the words a command passes, the whitelist of inert syntax, the table of wrappers, elevators, shells,
// interpreters and the inert variables, the simple commands a command line runs, and the command
// signatures approvals' "Always allow" rules match. Trust's danger flags read commands through it too.
export * from './commands';
export * from './inertNodes';
export * from './inertVariables';
export * from './programs';
export * from './syntax';
export * from './words';
export * from './commandSignatures';
export { quoteWords } from './reading';
