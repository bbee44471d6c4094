// Text a server, a repository or an authorization server controls, made safe to put in a VS Code
// notification, status bar message or progress title. VS Code (1.139) renders exactly two things in
// those strings: links written `[label](target)` or `[label](target "title")` whose target starts
// with `https://`, `http://`, `command:` or `file:` (any letter case; a `command:` link runs that
// command with its arguments when clicked), and theme icons written `$(name)` or `$(name~modifier)`.
// Nothing else is markup there: plain URLs, `<a …>` and `<https://…>` stay text. So this breaks
// exactly those two forms, visibly and without hiding anything: a link needs `](` with nothing
// between, which becomes `] (`; an icon is escaped the way VS Code itself escapes one (`\$(name)`,
// shown as the literal `$(name)`). Backslashes do not escape a link in VS Code, so none are trusted.

/** What VS Code 1.139 turns into an icon in a notification or status bar string (ThemeIcon syntax). */
const ICON = /(\\)?\$\([A-Za-z0-9-]+(?:~[A-Za-z]+)?\)/g;

export interface PlainTextOptions {
  /** A leading `$(icon) ` is the caller's own (a status message that starts with a fixed icon) and stays an icon. */
  keepLeadingIcon?: boolean;
}

/** `text` as a notification, status message or progress title shows it: no link, no command, no icon. */
export function plainText(text: string, options: PlainTextOptions = {}): string {
  const own = options.keepLeadingIcon ? /^\$\([A-Za-z0-9-]+(?:~[A-Za-z]+)?\) /.exec(text)?.[0] ?? '' : '';
  return own + text.slice(own.length)
    .replace(/\]\(/g, '] (')
    .replace(ICON, (icon: string, escaped: string | undefined) => (escaped ? icon : `\\${icon}`));
}
