// Elicitation: what a server asks the person for (a form, or a page to open), waiting for an answer.
export * from './elicitation';
export * from './formAnswer';
export * from './rateLimit';
export * from './urlTarget';
export * from './elicitationView';
