// Code mode: the model writes a short script that calls the MCP tools as `tools.<server>.<tool>(args)`
// in a sandbox; intermediate results stay there, and only what the script prints reaches the model.
export * from './codeApi';
export * from './codeRun';
export * from './codeTools';
export * from './declarations';
export * from './sandbox';
export * from './codeOutputScan';
