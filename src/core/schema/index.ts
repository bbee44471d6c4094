// JSON Schema as people meet it: the fields of a form, and the problems of arguments at their field.
export * from './formFields';
export * from './validateArguments';
