// Types of the two modules of npm's own configuration package that the policy reads npm's options with.
declare module '@npmcli/config/lib/definitions' {
  /** One of npm's options: its nopt type (a constructor, a list of allowed values or of types). */
  export const definitions: Record<string, { type: unknown }>;
  /** npm's short options and aliases (`-y` is `--yes`, `-q` is `--loglevel warn`). */
  export const shorthands: Record<string, string[]>;
}

declare module '@npmcli/config/lib/type-defs' {
  /** nopt's type definitions with npm's own (Semver, Umask, paths…). */
  const typeDefs: Record<string, unknown>;
  export = typeDefs;
}
