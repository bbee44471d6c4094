// The one shell reader of the core: the parser port (implemented over tree-sitter-bash in src/node),
// the words a command passes, the whitelist of inert syntax, the table of wrappers, elevators, shells,
// interpreters and exec-capable variables, and the simple commands a command line runs. Approvals'
// command signatures and trust's danger flags both read commands through it.
export * from './commands';
export * from './inertNodes';
export * from './programs';
export * from './syntax';
export * from './words';
